import { metaErrorCode } from "../providers/meta-error-codes.ts";

// What a message's `error_code` (D45) means, in a sentence for the people who read the
// dashboard and its export. Null when the code is unknown: the provider's own `error` text
// is then all there is.

const OURS: Record<string, string> = {
  simulated_failure: "Test mode's failing recipient: the failure is simulated, nothing was sent.",
  template_not_approved: "The template is not approved on WhatsApp, so it cannot be sent.",
  window_closed: "The contact's 24-hour WhatsApp window was closed: only a template can be sent then.",
  whatsapp_window_closed: "The contact's 24-hour WhatsApp window was closed: only a template can be sent then.",
  channel_disconnected: "The channel was disconnected before the message could go out.",
  channel_credentials_unreadable: "The channel's stored credentials could not be read with this server's secret.",
  provider_timeout:
    "The provider got the message but never answered. It is not sent again: the provider's report settles it, and without one it counts as failed, though it may have reached the recipient.",
};

export function errorReason(code: string | null | undefined): string | null {
  if (!code) return null;
  if (OURS[code]) return OURS[code];
  const smtp = /^smtp_(\d{3})$/.exec(code);
  if (smtp) {
    const reply = smtp[1]!;
    return reply.startsWith("5")
      ? `The receiving mail server refused the e-mail for good (SMTP ${reply}).`
      : `The mail server refused the e-mail for now (SMTP ${reply}); it was retried.`;
  }
  const whatsapp = /^whatsapp_(\d+)$/.exec(code)?.[1] ?? (/^\d+$/.test(code) ? code : undefined);
  if (whatsapp) {
    const meta = metaErrorCode(Number(whatsapp));
    return meta ? `${meta.meaning} (WhatsApp ${whatsapp}: ${meta.title})` : null;
  }
  return null;
}
