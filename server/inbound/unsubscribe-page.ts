import { escapeHtml } from "../lib/html.ts";

// The small page behind an e-mail's unsubscribe link. It has no scripts and posts the
// RFC 8058 body to its own URL.

const TEXT = {
  confirm: ["Unsubscribe", "Do you want to stop receiving these e-mails?"],
  done: ["Unsubscribed", "You will not receive these e-mails any more."],
  invalid: ["Link not valid", "This unsubscribe link is not valid, or the message it belongs to no longer exists."],
  bad_request: ["Unsubscribe", "The request did not say List-Unsubscribe=One-Click. Use the button below."],
} as const;

export function unsubscribePage(state: keyof typeof TEXT): string {
  const [title, message] = TEXT[state];
  const form =
    state === "confirm" || state === "bad_request"
      ? `<form method="post"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">Unsubscribe</button></form>`
      : "";
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f6f7f9;color:#111827;margin:0;display:flex;min-height:100vh;align-items:center;justify-content:center}
main{background:#fff;border:1px solid #e5e7eb;border-radius:12px;padding:32px;max-width:420px;margin:16px;text-align:center}
h1{font-size:20px;margin:0 0 8px}p{color:#4b5563;margin:0 0 24px}
button{font:inherit;background:#111827;color:#fff;border:0;border-radius:8px;padding:10px 20px;cursor:pointer}
</style>
</head>
<body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>${form}</main></body>
</html>
`;
}
