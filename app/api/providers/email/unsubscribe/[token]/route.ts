import { db } from "@/server/db/client.ts";
import { unsubscribeByToken, unsubscribeTarget } from "@/server/inbound/email-callbacks.ts";
import { readRequestBody } from "@/server/lib/read-body.ts";
import { unsubscribePage } from "@/server/inbound/unsubscribe-page.ts";

// One-click unsubscribe (RFC 8058, operations.md "Provider endpoints"). A POST whose body is
// `List-Unsubscribe=One-Click` sets the contact's opt_out_email. A GET (a person following
// the link, or a mail scanner prefetching it) only shows a page with a button that makes the
// same POST: fetching the link never unsubscribes anyone.

type Context = { params: Promise<{ token: string }> };

function html(body: string, status: number): Response {
  return new Response(body, {
    status,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
      "referrer-policy": "no-referrer",
    },
  });
}

export async function GET(_req: Request, { params }: Context): Promise<Response> {
  const { token } = await params;
  const known = await unsubscribeTarget(await db(), token);
  return known ? html(unsubscribePage("confirm"), 200) : html(unsubscribePage("invalid"), 404);
}

export async function POST(req: Request, { params }: Context): Promise<Response> {
  const { token } = await params;
  const raw = await readRequestBody(req, 16 * 1024);
  const text = raw?.toString("utf8") ?? "";
  // application/x-www-form-urlencoded (what mail clients send) or multipart/form-data.
  const oneClick =
    new URLSearchParams(text).get("List-Unsubscribe") === "One-Click" || /name="List-Unsubscribe"\r?\n\r?\nOne-Click\r?\n/.test(text);
  if (!oneClick) return html(unsubscribePage("bad_request"), 400);
  const outcome = await unsubscribeByToken(await db(), token);
  return outcome === "unsubscribed" ? html(unsubscribePage("done"), 200) : html(unsubscribePage("invalid"), 404);
}
