import { conflict } from "../../lib/errors.ts";
import type { Database } from "../../db/client.ts";
import { AppError } from "../../lib/errors.ts";
import { normalizePhone } from "../../lib/phone.ts";
import type { Content } from "../../providers/provider.ts";
import { optsOutOfMarketing, pauseReason } from "../../providers/meta-error-codes.ts";
import { checkTemplateSend, templateContent } from "../../whatsapp/check-template-send.ts";
import { prepareWhatsApp, whatsappCli } from "./connect.ts";
import {
  WHATSAPP_MESSAGE_FIELDS,
  WHATSAPP_REACH_FIELDS,
  ZConnectWhatsAppRequest,
  ZStepWhatsAppContent,
  ZWhatsAppContent,
} from "./contract.ts";
import type { Channel, ContentIssue, Fill, Mode, TestMessageInput, WindowContact } from "../channel.ts";

/** D43: the one test recipient whose 24-hour WhatsApp window is always closed. */
export const WINDOW_CLOSED_RECIPIENT = "+15550100004";

/** D43: whether the contact's 24-hour window is open now (test keys: always, but for the reserved recipient). */
export function windowOpen(mode: Mode, contact: WindowContact, address: string, now: Date = new Date()): boolean {
  if (mode === "test") return address !== WINDOW_CLOSED_RECIPIENT;
  return contact.whatsapp_window_expires_at !== null && new Date(contact.whatsapp_window_expires_at).getTime() > now.getTime();
}

/** D43: free-form content (`param`: `whatsapp.body` or `whatsapp.media_url`) outside the window. */
export function windowClosedError(mode: Mode, contact: WindowContact, param: string): AppError {
  const expired = contact.whatsapp_window_expires_at;
  return conflict(
    "whatsapp_window_closed",
    `${expired && mode === "live" ? `The contact's 24-hour WhatsApp window closed at ${expired}` : "The contact's 24-hour WhatsApp window never opened: the contact has not written to you on WhatsApp"}. Outside the window only a template can be sent: give whatsapp.template.`,
    param,
  );
}

/** The fields of a send request's (or a flow send step's) `whatsapp` object. */
type WhatsAppFields = { body?: string; media_url?: string; media_type?: string; template?: unknown; fallback?: "template" };

/** D16, D42, D43: a template or free-form content (a flow step may carry both, with `fallback`). */
function checkContent(w: WhatsAppFields | undefined, issue: ContentIssue): void {
  const freeForm = w?.body !== undefined || w?.media_url !== undefined || w?.media_type !== undefined;
  if (w?.fallback !== undefined && (w.template === undefined || !freeForm)) {
    // D43 (flow send steps): the fallback names what goes outside the window instead of the free-form content.
    issue(["whatsapp", "fallback"], "needs both the free-form content (whatsapp.body or whatsapp.media_url) and whatsapp.template");
  } else if (w?.template !== undefined && w.fallback === undefined) {
    // D42: a template replaces the free-form content.
    if (freeForm) issue(["whatsapp", "template"], "give either whatsapp.template or whatsapp.body/media_url, not both");
  } else if (!w?.body && !w?.media_url) {
    issue(["whatsapp", "body"], "a WhatsApp message needs whatsapp.body or whatsapp.media_url");
  } else if (w?.media_url && !w.media_type) {
    issue(["whatsapp", "media_type"], "is required with whatsapp.media_url");
  }
}

/** D48: the request's limit (D16) applies to the rendered body too. */
const BODY_LIMIT = { param: "whatsapp.body", max: 4096, unit: "characters" } as const;

/** The dashboard's test message: to a phone number, a text or a template of the channel. */
async function testMessage(
  database: Database,
  channel: { id: string; workspaceId: string },
  input: TestMessageInput,
): Promise<{ to: string; content: Content }> {
  const { workspaceId } = channel;
  const workspace = await database.prisma.workspace.findUnique({ where: { id: workspaceId }, select: { defaultCountry: true } });
  const to = normalizePhone(input.to, workspace?.defaultCountry ?? null, "to");
  if (!input.template) return { to, content: { body: input.text ?? "" } };
  // D42's checks, against this channel's templates; the parameters' texts go as typed.
  const { template, parameters } = await checkTemplateSend(database.query, { id: channel.id, workspaceId }, input.template).catch(
    (err: unknown) => {
      throw err instanceof AppError && err.param
        ? new AppError(err.code, err.message, { param: err.param.replace(/^whatsapp\./, "") })
        : err;
    },
  );
  return { to, content: templateContent(template, parameters, input.template.parameters ?? {}) };
}

export const whatsapp = {
  type: "whatsapp",
  label: "WhatsApp",
  content: ZWhatsAppContent,
  stepContent: ZStepWhatsAppContent,
  messageFields: WHATSAPP_MESSAGE_FIELDS,
  usage: { accepted: "Live WhatsApp messages accepted this month." },
  usageFields: {},
  reach: {
    what: "a WhatsApp message",
    fields: WHATSAPP_REACH_FIELDS,
    // D88: a contact without a phone is messaged at its WhatsApp user id, its window the same.
    of(mode, contact, address, now) {
      const open = address !== null && windowOpen(mode, contact, address, now);
      return { window: { open, expires_at: contact.whatsapp_window_expires_at }, template_required: address !== null && !open };
    },
  },
  connect: {
    request: ZConnectWhatsAppRequest,
    // Meta's default throughput for a WhatsApp business number.
    defaultRatePerSecond: 80,
    secretNames: ["access_token", "app_secret", "verify_token"],
    prepare: prepareWhatsApp,
    cli: whatsappCli,
  },
  // D88: the contact's phone, else its WhatsApp user id.
  addressOf: (contact) => contact.phone ?? contact.whatsapp_user_id,
  missingAddress: { what: "phone number", param: "to.phone" },
  optedOut: (contact) => contact.opt_out_whatsapp,
  suppressible: false,
  window: { open: windowOpen, closedError: windowClosedError },
  checkContent,
  templates: true,
  reputationGuard: false,
  render(w: WhatsAppFields | undefined, fill: Fill) {
    return {
      ...(w?.body !== undefined ? { body: fill(w.body, { limit: BODY_LIMIT }) } : {}),
      ...(w?.media_url ? { media_url: w.media_url, media_type: w.media_type } : {}),
    };
  },
  testMessage,
  callbackPath: "/api/providers/whatsapp",
  callbackPerChannel: false,
  // D90: 131042 and 368 pause the channel; 131050 records the contact's marketing opt-out.
  refusal(errorCode) {
    const code = Number(errorCode);
    if (Number.isNaN(code)) return undefined;
    const pause = pauseReason(code);
    if (pause) return { pause };
    return optsOutOfMarketing(code) ? { flag: "whatsapp_marketing_opt_out" } : undefined;
  },
} satisfies Channel;
