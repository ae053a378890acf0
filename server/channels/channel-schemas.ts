import { z } from "zod";
import { ZWhatsAppTemplate } from "../whatsapp/template-schemas.ts";
import type { Channel as ChannelModel } from "../generated/prisma/client.ts";
import type { ChannelType } from "./channel.ts";
import { CHANNEL_TYPES, channelOf, perChannel, type ChannelModules } from "./registry.ts";

// A workspace's provider connections (operations.md "Provider endpoints"). What is stored:
// `external_id` is the WhatsApp phone number id or the e-mail from address; `settings` the
// non-secret settings; the secrets are sealed (server/lib/crypto.ts) and never returned.

/** Provider calls per second at most of each channel type, unless its connect request says. */
export const DEFAULT_RATE_PER_SECOND = perChannel((channel) => channel.connect.defaultRatePerSecond);

/** The secrets each channel type keeps, in the order they are shown. */
export const SECRET_NAMES = perChannel((channel) => channel.connect.secretNames);

type ConnectVariant = ChannelModules[ChannelType]["connect"]["request"];

/** One variant a channel type (its module's `connect.request`), in the registry's order. */
export const ZConnectChannelRequest = z.discriminatedUnion(
  "type",
  CHANNEL_TYPES.map((type) => channelOf(type).connect.request) as unknown as [ConnectVariant, ...ConnectVariant[]],
);

export type ConnectChannelRequest = z.input<typeof ZConnectChannelRequest>;

export const ZChannel = z.object({
  id: z.string().describe("Prefix `ch_`."),
  type: z.enum(CHANNEL_TYPES),
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
