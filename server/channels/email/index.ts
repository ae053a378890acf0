import { normalizeEmail } from "../../lib/email.ts";
import { invalid } from "../../lib/errors.ts";
import { escapeHtml } from "../../lib/html.ts";
import type { Channel, Fill } from "../channel.ts";
import { emailCli, prepareEmail } from "./connect.ts";
import { ZConnectEmailRequest, ZEmailContent } from "./contract.ts";

/** The fields of a send request's `email` object. */
type EmailFields = { subject?: string; html?: string; reply_to?: string; preview_text?: string };

/** D48: the request's limits (D16) apply to the rendered texts too. */
const LIMITS = {
  subject: { param: "email.subject", max: 998, unit: "characters" },
  html: { param: "email.html", max: 512 * 1024, unit: "bytes" },
} as const;

export const email = {
  type: "email",
  label: "e-mail",
  content: ZEmailContent,
  stepContent: ZEmailContent,
  messageFields: {},
  usage: { accepted: "Live e-mails accepted this month." },
  usageFields: {},
  reach: { what: "an e-mail", fields: {} },
  connect: {
    request: ZConnectEmailRequest,
    defaultRatePerSecond: 10,
    secretNames: ["smtp_url", "events_token", "dkim_private_key"],
    prepare: prepareEmail,
    cli: emailCli,
  },
  addressOf: (contact) => contact.email,
  missingAddress: { what: "e-mail address", param: "to.email" },
  optedOut: (contact) => contact.opt_out_email,
  suppressible: true,
  checkContent(e: EmailFields | undefined, issue) {
    if (!e?.html) issue(["email", "html"], "an e-mail needs email.html");
  },
  templates: false,
  reputationGuard: true,
  render(e: EmailFields | undefined, fill: Fill) {
    return {
      subject: fill(e?.subject ?? "", { limit: LIMITS.subject }),
      // D17: values inserted into HTML are escaped.
      html: fill(e?.html ?? "", { html: true, limit: LIMITS.html }),
      ...(e?.reply_to ? { reply_to: normalizeEmail(e.reply_to, "email.reply_to") } : {}),
      ...(e?.preview_text ? { preview_text: fill(e.preview_text) } : {}),
    };
  },
  async testMessage(_database, _channel, input) {
    if (input.template) throw invalid("unknown_parameter", "Only a WhatsApp channel sends templates.", "template");
    const html = `<p>${escapeHtml(input.text ?? "").replace(/\r?\n/g, "<br>")}</p>`;
    return { to: normalizeEmail(input.to, "to"), content: { subject: "Test message", html } };
  },
  callbackPath: "/api/providers/email/events",
  callbackPerChannel: false,
} satisfies Channel;
