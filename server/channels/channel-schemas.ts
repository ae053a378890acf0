import { z } from "zod";
import { DEFAULT_GRAPH_API_BASE_URL } from "../providers/provider.ts";
import { ZWhatsAppTemplate } from "../whatsapp/template-schemas.ts";
import type { Channel as ChannelModel } from "../generated/prisma/client.ts";
import type { ChannelType } from "./channel.ts";
import { channelOf } from "./registry.ts";

// A workspace's provider connections (operations.md "Provider endpoints"). What is stored:
// `external_id` is the WhatsApp phone number id or the e-mail from address; `settings` the
// non-secret settings; the secrets are sealed (server/lib/crypto.ts) and never returned.

/** Meta's default throughput for a WhatsApp business number; a modest default for SMTP relays. */
export const DEFAULT_RATE_PER_SECOND = { whatsapp: 80, email: 10, sms: 10 } as const satisfies Record<ChannelType, number>;

/** The secrets each channel type keeps, in the order they are shown. */
export const SECRET_NAMES = {
  whatsapp: ["access_token", "app_secret", "verify_token"],
  email: ["smtp_url", "events_token", "dkim_private_key"],
  sms: ["auth_token"],
} as const satisfies Record<ChannelType, readonly string[]>;

const ZHttpUrl = z
  .url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" })
  .max(2048)
  .transform((u) => u.replace(/\/+$/, ""));

const ZRate = z.number().int().min(1).max(1000).optional().describe("Provider calls per second at most (the pipeline paces sends).");

const ZName = z.string().trim().min(1).max(100).optional();

const ZSecret = (what: string) => z.string().trim().min(1, `${what} must not be empty`).max(4096);

export const ZConnectWhatsAppRequest = z.object({
  type: z.literal("whatsapp"),
  name: ZName,
  phone_number_id: z
    .string()
    .trim()
    .regex(/^\d{1,32}$/, "must be the numeric phone number id of the WhatsApp Business account"),
  access_token: ZSecret("access_token"),
  app_secret: ZSecret("app_secret"),
  verify_token: ZSecret("verify_token"),
  api_base_url: ZHttpUrl.optional().describe(`The Graph API base, with its version; ${DEFAULT_GRAPH_API_BASE_URL} by default.`),
  waba_id: z
    .string()
    .trim()
    .regex(/^\d{1,32}$/, "must be the numeric id of the WhatsApp Business account")
    .optional()
    .describe("The WhatsApp Business account id: its message templates are synced from it."),
  rate_per_second: ZRate,
});

/** A DKIM selector: one or more DNS labels (RFC 6376 3.1), e.g. `svc` or `mail.2026`. */
export const ZDkimSelector = z
  .string()
  .trim()
  .toLowerCase()
  .max(63)
  .regex(
    /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/,
    "must be a DNS label: letters, digits and dashes (dots between labels), e.g. svc or mail2026",
  );

/** A PEM private key as given (the file's contents); checked by `dkimKey`. */
export const ZDkimPrivateKey = z.string().max(16_384, "must be a PEM private key of at most 16 KiB");

export const ZConnectEmailRequest = z.object({
  type: z.literal("email"),
  name: ZName,
  smtp_url: z
    .string()
    .trim()
    .max(2048)
    .refine(
      (s) => /^smtps?:\/\/[^/]/i.test(s) && URL.canParse(s),
      "must be an smtp:// or smtps:// URL, e.g. smtps://user:password@smtp.example.com:465",
    ),
  from: z.string().trim().min(3).max(320).describe("The sender address."),
  tracking_base_url: ZHttpUrl.optional().describe("Origin of the tracking and unsubscribe links; APP_URL by default."),
  bounce_domain: z
    .string()
    .trim()
    .toLowerCase()
    .max(253)
    .regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, "must be a domain name, e.g. bounces.example.com")
    .optional()
    .describe("The domain of the return path `bounces+<message id>@<domain>`, whose MX points at the service's SMTP listener."),
  dkim_selector: ZDkimSelector.optional().describe(
    "Signs every mail with DKIM under this selector: its key is published at `<selector>._domainkey.<from domain>`.",
  ),
  dkim_private_key: ZDkimPrivateKey.optional().describe(
    "With `dkim_selector`: the PEM RSA private key to sign with (1024 to 4096 bits); a 2048-bit key is generated when absent.",
  ),
  rate_per_second: ZRate,
});

export const ZConnectSmsRequest = z
  .object({
    type: z.literal("sms"),
    name: ZName,
    account_sid: z
      .string()
      .trim()
      .regex(/^AC[0-9a-fA-F]{32}$/, "must be the Twilio account SID: AC followed by 32 hexadecimal digits"),
    auth_token: ZSecret("auth_token"),
    from: z
      .string()
      .trim()
      .max(64)
      .optional()
      .describe("The sending phone number of the account (E.164); or give `messaging_service_sid`."),
    messaging_service_sid: z
      .string()
      .trim()
      .regex(/^MG[0-9a-fA-F]{32}$/, "must be a Twilio Messaging Service SID: MG followed by 32 hexadecimal digits")
      .optional()
      .describe("A Messaging Service of the account that picks the sender; or give `from`."),
    api_base_url: ZHttpUrl.optional().describe("The Twilio API base; https://api.twilio.com by default."),
    rate_per_second: ZRate,
  })
  .superRefine((v, ctx) => {
    if ((v.from === undefined) === (v.messaging_service_sid === undefined)) {
      ctx.addIssue({ code: "custom", path: ["from"], message: "give either from or messaging_service_sid" });
    }
  });

export const ZConnectChannelRequest = z.discriminatedUnion("type", [ZConnectWhatsAppRequest, ZConnectEmailRequest, ZConnectSmsRequest]);

export type ConnectChannelRequest = z.input<typeof ZConnectChannelRequest>;

export const ZChannel = z.object({
  id: z.string().describe("Prefix `ch_`."),
  type: z.enum(["whatsapp", "email", "sms"]),
  name: z.string(),
  external_id: z.string().describe("WhatsApp: the phone number id; e-mail: the from address; SMS: the Twilio account SID."),
  settings: z
    .record(z.string(), z.string())
    .describe(
      "api_base_url and waba_id (WhatsApp), from, tracking_base_url, bounce_domain, dkim_selector and dkim_public_key (e-mail), from or messaging_service_sid and api_base_url (SMS).",
    ),
  templates_synced_at: z.string().nullable().describe("WhatsApp: when the message templates were last synced; null before the first sync."),
  secrets_set: z.array(z.string()).describe("Names of the secrets stored; their values are never shown."),
  secrets_readable: z.boolean().describe("False when the stored secrets cannot be decrypted (AUTH_SECRET changed)."),
  callback_url: z
    .string()
    .describe("Where the provider reports: the WhatsApp webhook, the e-mail events endpoint, or the SMS status and inbound callback."),
  rate_per_second: z.number(),
  created_at: z.string(),
  disconnected_at: z.string().nullable(),
  status: z
    .enum(["connected", "paused", "disconnected"])
    .describe("`paused`: WhatsApp stopped the number, or the reputation guard paused journey sends; resume it once fixed."),
  paused_reason: z
    .enum(["payment", "policy", "complaint_rate", "bounce_rate"])
    .nullable()
    .describe(
      "Why it is paused: `payment` or `policy` (WhatsApp stopped the number: every live send is refused), `complaint_rate` or `bounce_rate` (journey sends only). Null when not paused.",
    ),
  paused_at: z.string().nullable().describe("When it was paused (ISO 8601); null when not paused."),
  reputation: z
    .object({
      complaint_rate: z.number().describe("Spam complaints / e-mails delivered, over the last 7 days (0.003 is 0.3 %)."),
      bounce_rate: z.number().describe("Hard bounces / e-mails sent, over the last 7 days."),
      window_sent: z
        .number()
        .int()
        .describe("E-mails sent over the last 7 days; journey sends are paused past a threshold only from 1,000."),
    })
    .nullable()
    .describe(
      "E-mail channels: the rolling 7-day rates the reputation guard watches (live e-mails only); null for WhatsApp. Past the workspace's threshold, journey e-mails on the channel are paused.",
    ),
});

export type Channel = z.infer<typeof ZChannel>;

export const ZConnectChannelResponse = z.object({
  channel_id: z.string(),
  channel: ZChannel,
  events_token: z.string().optional().describe("E-mail channels: the bearer token of the e-mail events endpoint, shown once."),
});

export type ConnectChannelResponse = z.infer<typeof ZConnectChannelResponse>;

export const ZSendTestRequest = z
  .object({
    channel_id: z.string().min(1).max(64),
    to: z.string().trim().min(1).max(320).describe("A phone number (WhatsApp) or an e-mail address."),
    text: z.string().trim().min(1).max(4096).optional(),
    /** WhatsApp: an approved template of the channel with its parameters' texts, instead of `text` (D42). */
    template: ZWhatsAppTemplate.optional(),
  })
  .superRefine((v, ctx) => {
    if ((v.text === undefined) === (v.template === undefined)) {
      ctx.addIssue({ code: "custom", path: [v.text === undefined ? "text" : "template"], message: "give either text or template" });
    }
  });

export type SendTestRequest = z.infer<typeof ZSendTestRequest>;

export type ChannelRow = Pick<
  ChannelModel,
  "id" | "type" | "name" | "externalId" | "settings" | "secrets" | "ratePerSecond" | "createdAt" | "disconnectedAt"
> &
  Partial<Pick<ChannelModel, "templatesSyncedAt" | "pausedAt" | "pausedReason">>;

export const CHANNEL_SELECT = {
  id: true,
  type: true,
  name: true,
  externalId: true,
  settings: true,
  secrets: true,
  ratePerSecond: true,
  createdAt: true,
  disconnectedAt: true,
  templatesSyncedAt: true,
  pausedAt: true,
  pausedReason: true,
} as const;

/** Where a channel's provider reports: one URL per channel type, or per channel when the type says so (sms). */
export function callbackUrl(channel: { type: ChannelType; id: string }, appUrl: string): string {
  const kind = channelOf(channel.type);
  return `${appUrl}${kind.callbackPath}${kind.callbackPerChannel ? `/${channel.id}` : ""}`;
}
