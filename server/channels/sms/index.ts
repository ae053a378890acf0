import type { Database } from "../../db/client.ts";
import { invalid } from "../../lib/errors.ts";
import { normalizePhone } from "../../lib/phone.ts";
import { SMS_CALLBACK_PATH } from "../../providers/twilio-callback.ts";
import type { Channel, Fill, TestMessageInput } from "../channel.ts";
import { prepareSms, smsCli } from "./connect.ts";
import { SMS_MESSAGE_FIELDS, SMS_USAGE_FIELDS, ZConnectSmsRequest, ZSmsContent } from "./contract.ts";
import { SMS_BODY_MAX, smsSegments } from "./segments.ts";

// SMS through Twilio's Messages API (D94-D97): a text body to the contact's phone. The provider
// client is server/providers/twilio-sms.ts; its callbacks (statuses, inbound, STOP/START) are
// read by server/inbound/sms-callbacks.ts.

/** The fields of a send request's (or a flow send step's) `sms` object. */
type SmsFields = { body?: string };

const BODY_LIMIT = { param: "sms.body", max: SMS_BODY_MAX, unit: "characters" } as const;

/** D96: Twilio's error when the recipient texted STOP to the sender. */
const UNSUBSCRIBED = "sms_21610";

async function testMessage(
  database: Database,
  channel: { id: string; workspaceId: string },
  input: TestMessageInput,
): Promise<{ to: string; content: { body: string } }> {
  if (input.template) throw invalid("unknown_parameter", "Only a WhatsApp channel sends templates.", "template");
  const workspace = await database.prisma.workspace.findUnique({ where: { id: channel.workspaceId }, select: { defaultCountry: true } });
  return { to: normalizePhone(input.to, workspace?.defaultCountry ?? null, "to"), content: { body: input.text ?? "" } };
}

export const sms = {
  type: "sms",
  label: "SMS",
  content: ZSmsContent,
  stepContent: ZSmsContent,
  messageFields: SMS_MESSAGE_FIELDS,
  usage: {
    accepted: "Live SMS accepted this month.",
    // D97: counted at acceptance, given back on cancel.
    of: (counters) => ({ sms_segments: counters.reduce((n, c) => n + c.segments, 0) }),
  },
  usageFields: SMS_USAGE_FIELDS,
  reach: { what: "an SMS", fields: {} },
  connect: { request: ZConnectSmsRequest, defaultRatePerSecond: 10, secretNames: ["auth_token"], prepare: prepareSms, cli: smsCli },
  addressOf: (contact) => contact.phone,
  missingAddress: { what: "phone number", param: "to.phone" },
  optedOut: (contact) => contact.opt_out_sms,
  suppressible: false,
  checkContent(s: SmsFields | undefined, issue) {
    if (!s?.body) issue(["sms", "body"], "an SMS needs sms.body");
  },
  templates: false,
  reputationGuard: false,
  render(s: SmsFields | undefined, fill: Fill) {
    return { body: fill(s?.body ?? "", { limit: BODY_LIMIT }) };
  },
  testMessage,
  callbackPath: SMS_CALLBACK_PATH,
  callbackPerChannel: true,
  refusal: (errorCode) => (errorCode === UNSUBSCRIBED ? { flag: "opt_out_sms" } : undefined),
  segments(content) {
    const { encoding, segments } = smsSegments("body" in content && typeof content.body === "string" ? content.body : "");
    return { encoding, segments };
  },
} satisfies Channel;
