import { z } from "zod";
import type { Message as MessageModel } from "../generated/prisma/client.ts";
import type { ChannelType } from "../channels/channel.ts";
import { CHANNEL_TYPES, channelOf, mergedParts, perChannel, type ChannelModules } from "../channels/registry.ts";
import { MEDIA_TYPES } from "../providers/provider.ts";

/** The contract's channel types (`channel`), in the registry's order. */
export const CHANNELS = CHANNEL_TYPES;

const ADDRESSES = ["phone", "email", "whatsapp_user_id", "contact_id"] as const;

type JsonSchema = Record<string, unknown> & { properties?: Record<string, unknown>; required?: string[] };

/** D5, D56: the document shows the recipient as a `oneOf`, one branch per address. */
function recipientBranches({ jsonSchema }: { jsonSchema: JsonSchema }): void {
  const { properties = {}, description } = jsonSchema;
  for (const key of Object.keys(jsonSchema)) delete jsonSchema[key];
  Object.assign(jsonSchema, {
    description,
    oneOf: ADDRESSES.map((address) => ({
      title: `RecipientBy${address
        .split("_")
        .map((w) => (w === "whatsapp" ? "WhatsApp" : w[0]!.toUpperCase() + w.slice(1)))
        .join("")}`,
      type: "object",
      properties: { [address]: properties[address], ...(address === "contact_id" ? {} : { name: properties.name }) },
      required: [address],
    })),
  });
}

/** D5, D88: a recipient given by exactly one of `phone`, `email`, `whatsapp_user_id`, `contact_id` (messages, enroll, unenroll). */
export const ZRecipient = z
  .strictObject({
    phone: z.string().max(64).optional().meta({ example: "+5511987654321" }),
    email: z.string().max(320).optional().meta({ example: "ana@example.com" }),
    whatsapp_user_id: z
      .string()
      .max(256)
      .optional()
      .describe("A WhatsApp user id, for a contact whose phone number WhatsApp does not share.")
      .meta({ example: "US.13491208655302741918" }),
    contact_id: z.string().max(64).optional().describe("Prefix `ct_`."),
    name: z
      .string()
      .trim()
      .max(200)
      .optional()
      .describe(
        "May accompany `phone`, `email` or `whatsapp_user_id`: the name of a contact created for them, or of the matched contact when it has none.",
      )
      .meta({ example: "Ana" }),
  })
  .superRefine((to, ctx) => {
    const given = ADDRESSES.filter((k) => to[k] !== undefined);
    if (given.length !== 1) ctx.addIssue({ code: "custom", message: "give exactly one of phone, email, whatsapp_user_id or contact_id" });
  })
  .describe("Exactly one of `phone`, `email`, `whatsapp_user_id`, `contact_id`.")
  .meta({ id: "Recipient", override: recipientBranches });

export const ZSingleRecipient = ZRecipient;

const ZVariableValue = z.union([z.string().max(1000, "must be at most 1000 characters"), z.number(), z.boolean()]);

/** A send request's content objects, one a channel (`whatsapp`, `email`, `sms`): each its module's `content`. */
export const CONTENT_SHAPE = perChannel((channel) => channel.content.optional()) as {
  [K in ChannelType]: z.ZodOptional<ChannelModules[K]["content"]>;
};

export const ZVariables = z
  .record(z.string().max(64), ZVariableValue)
  .refine((v) => Object.keys(v).length <= 100, "at most 100 variables")
  .describe("Values for the `{{variable}}` placeholders: at most 100 keys; strings, numbers or booleans.");

/** D57: the caller's correlation data, returned on the Message and in its events' `data`. */
export const ZMetadata = z
  .record(z.string(), z.string().max(500, "must be at most 500 characters"))
  .superRefine((m, ctx) => {
    const keys = Object.keys(m);
    if (keys.length > 20) ctx.addIssue({ code: "custom", message: `has ${keys.length} keys; at most 20 are allowed` });
    for (const key of keys) {
      if (key.length < 1 || key.length > 40) ctx.addIssue({ code: "custom", path: [key], message: "keys must be 1 to 40 characters" });
    }
  })
  .describe("Your own key-value pairs, such as an order id: at most 20 keys of up to 40 characters, string values of up to 500.")
  .meta({ example: { order_id: "ord_1042" } });

/** D76: how far ahead a message may be scheduled, and how far in the past `send_at` may lie and still mean "now" (clock skew, latency). */
export const SCHEDULE_MAX_MS = 30 * 24 * 60 * 60_000;
export const SCHEDULE_GRACE_MS = 5_000;

/** D76: a timestamp from now to 30 days ahead. */
export const ZSendAt = z
  .string()
  .superRefine((value, ctx) => {
    const parts = /^(\d{4})-(\d{2})-(\d{2})T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i.exec(value);
    // The day must exist: Date.parse takes 2030-02-31 as 3 March.
    const day = parts && new Date(Date.UTC(Number(parts[1]), Number(parts[2]) - 1, Number(parts[3])));
    const at = day?.getUTCDate() === Number(parts?.[3]) && day.getUTCMonth() === Number(parts?.[2]) - 1 ? Date.parse(value) : NaN;
    if (Number.isNaN(at)) {
      ctx.addIssue({ code: "custom", message: "must be an ISO 8601 timestamp with a time zone, such as 2026-12-01T09:00:00Z" });
    } else if (at < Date.now() - SCHEDULE_GRACE_MS) {
      ctx.addIssue({ code: "custom", message: "is in the past" });
    } else if (at > Date.now() + SCHEDULE_MAX_MS) {
      ctx.addIssue({ code: "custom", message: "is more than 30 days ahead" });
    }
  })
  .describe(
    "When to send it: an ISO 8601 timestamp from now to 30 days ahead. The message stays `queued`, with `scheduled_at`, until then. Omit to send at once.",
  )
  .meta({ example: "2026-12-01T09:00:00Z" });

type ContentFields = { channel: ChannelType } & { [K in ChannelType]?: object };

/** D16's content rules, shared by `POST /messages` and flow `send` steps (D37): each channel's own (its module's). */
export function checkContent(v: ContentFields, ctx: z.RefinementCtx): void {
  // D58: another channel's content is not a parameter of this message.
  const others = CHANNELS.filter((type) => type !== v.channel && v[type] !== undefined);
  if (others.length > 0) ctx.addIssue({ code: "unrecognized_keys", keys: others, path: [], input: v });
  if (!CHANNELS.includes(v.channel)) return; // the enum's own issue says it
  channelOf(v.channel).checkContent(v[v.channel], (path, message) => ctx.addIssue({ code: "custom", path, message }));
}

export const ZSendMessageRequest = z
  .strictObject({
    channel: z.enum(CHANNELS),
    to: ZSingleRecipient,
    ...CONTENT_SHAPE,
    variables: ZVariables.optional(),
    channel_id: z.string().max(64).optional().describe("A specific channel; otherwise the connected channel of the type is used."),
    metadata: ZMetadata.optional(),
    send_at: ZSendAt.optional(),
    dry_run: z
      .boolean()
      .optional()
      .describe(
        "`true`: run every check of the send and answer `200` with the message as it would be created, its content rendered, and no `id`; nothing is written, sent or counted. The same errors as a real send. Not taken by `POST /messages/batch`.",
      ),
  })
  .superRefine(checkContent)
  .meta({
    // The document splits it by `channel` (server/api/openapi.ts), one example per channel.
    examples: [
      { channel: "whatsapp", to: { phone: "+5511987654321" }, whatsapp: { body: "Your code is {{code}}." }, variables: { code: "4821" } },
      { channel: "email", to: { email: "ana@example.com", name: "Ana" }, email: { subject: "Welcome", html: "<p>Hello {{name}}!</p>" } },
      { channel: "sms", to: { phone: "+5511987654321" }, sms: { body: "Your code is {{code}}." }, variables: { code: "4821" } },
      {
        channel: "whatsapp",
        to: { phone: "+5511987654321" },
        whatsapp: { body: "Your code is {{code}}." },
        variables: { code: "4821" },
        dry_run: true,
      },
    ],
  });

export type SendMessageRequest = z.output<typeof ZSendMessageRequest>;

/** The Message's fields that channels add (WhatsApp's `pricing`, the sms's `sms`), each a column of the message. */
const MESSAGE_CHANNEL_FIELDS = mergedParts("messageFields");

/** Those fields as they are when the message has none (null). */
const NO_CHANNEL_FIELDS = Object.fromEntries(Object.keys(MESSAGE_CHANNEL_FIELDS).map((key) => [key, null]));

/** Every status of a message (D8, D44, D76). */
export const MESSAGE_STATUSES = ["queued", "sent", "delivered", "read", "failed", "received", "canceled"] as const;

export const ZMessage = z
  .object({
    id: z.string().describe("Prefix `msg_`."),
    status: z
      .enum(MESSAGE_STATUSES)
      .describe(
        "`received` for an inbound message; a message you send moves from `queued` to `sent`, `delivered`, `read` or `failed`, or to `canceled` when canceled before it was handed to the provider. New values may be added: accept values you do not know.",
      ),
    channel: z.enum(CHANNELS),
    direction: z.enum(["outbound", "inbound"]).describe("`outbound` for messages sent, `inbound` for messages received."),
    to: z.string().nullable().describe("The address the message goes to."),
    contact_id: z.string().describe("The contact the message went to. Prefix `ct_`."),
    metadata: z.record(z.string(), z.string()).describe("The `metadata` given on send; `{}` when none."),
    provider_message_id: z.string().nullable().describe("Null right after acceptance."),
    error: z
      .string()
      .nullable()
      .describe(
        "Why it failed, or, while it is `queued` with `error_code` `provider_timeout`, why its outcome is not known yet; null otherwise.",
      ),
    error_code: z
      .string()
      .nullable()
      .describe(
        "The provider's error code when it failed: Meta's numeric code as text (such as `131047`), `smtp_<reply code>` for an SMTP rejection, `sms_<Twilio error code>` for an SMS (such as `sms_30003`), or one of `template_not_approved`, `window_closed`, `channel_disconnected`, `channel_credentials_unreadable` (the channel's stored credentials cannot be opened with the server's secret), `simulated_failure`, `provider_timeout` (the provider got the message but never answered: while the message is `queued` it waits for the provider's report, which clears the code; without a report it fails with this code, and may still have reached the recipient). Null otherwise.",
      ),
    ...MESSAGE_CHANNEL_FIELDS,
    scheduled_at: z.string().nullable().describe("The `send_at` it was sent with; null when it was sent at once."),
    canceled_at: z.string().nullable().describe("When it was canceled; null otherwise."),
    sent_at: z.string().nullable(),
    delivered_at: z.string().nullable(),
    read_at: z.string().nullable(),
    created_at: z.string(),
  })
  .meta({ id: "Message" });

export type Message = z.infer<typeof ZMessage>;

/** D71: a message's content as it would be sent, placeholders filled. */
export const ZRenderedContent = z
  .object({
    body: z.string().optional().describe("WhatsApp: the text, or a template's body with its parameters filled."),
    media_url: z.string().optional(),
    media_type: z.enum(MEDIA_TYPES).optional(),
    template: z
      .object({
        name: z.string(),
        language: z.string(),
        parameters: z.record(z.string(), z.string()).describe("Each template parameter's text, filled."),
      })
      .optional()
      .describe("WhatsApp: the template that would be sent."),
    subject: z.string().optional().describe("E-mail: the subject."),
    html: z.string().optional().describe("E-mail: the HTML body."),
    reply_to: z.string().optional(),
    preview_text: z.string().optional(),
  })
  .meta({ id: "RenderedContent" });
export type RenderedContent = z.infer<typeof ZRenderedContent>;

/** D71: what `POST /messages` with `dry_run` answers: the message a send would create, with no id, and its rendered content. */
export const ZMessageDryRun = ZMessage.omit({ id: true })
  .extend({
    dry_run: z.literal(true),
    contact_id: z.string().nullable().describe("The recipient's contact; null when a real send would create it (the recipient is new)."),
    content: ZRenderedContent,
  })
  .meta({
    id: "MessageDryRun",
    example: {
      dry_run: true,
      status: "queued",
      channel: "whatsapp",
      direction: "outbound",
      to: "+5511987654321",
      contact_id: "ct_0mwq18yo3jJFvnIzUvqf4q",
      metadata: {},
      provider_message_id: null,
      error: null,
      error_code: null,
      ...NO_CHANNEL_FIELDS,
      scheduled_at: null,
      canceled_at: null,
      sent_at: null,
      delivered_at: null,
      read_at: null,
      created_at: "2026-11-27T10:00:00.000Z",
      content: { body: "Your code is 4821." },
    },
  });
export type MessageDryRun = z.infer<typeof ZMessageDryRun>;

export type MessageRow = Pick<
  MessageModel,
  "id" | "status" | "channel" | "to" | "contactId" | "providerMessageId" | "error" | "sentAt" | "deliveredAt" | "readAt" | "createdAt"
> &
  Partial<Pick<MessageModel, "direction" | "errorCode" | "scheduledAt" | "canceledAt">> & {
    metadata: unknown;
  } & { [K in keyof typeof MESSAGE_CHANNEL_FIELDS]?: unknown };

/** The columns of `messageView` as SQL, read from `messages m` (`MessageRow`'s names). */
export const MESSAGE_VIEW_COLUMNS = `m.id, m.status::text AS status, m.channel::text AS channel, m.direction, m."to",
  m.contact_id AS "contactId", m.metadata, m.provider_message_id AS "providerMessageId", m.error, m.error_code AS "errorCode", ${Object.keys(
    MESSAGE_CHANNEL_FIELDS,
  )
    .map((key) => `m.${key}`)
    .join(", ")},
  m.scheduled_at AS "scheduledAt", m.canceled_at AS "canceledAt", m.sent_at AS "sentAt", m.delivered_at AS "deliveredAt", m.read_at AS "readAt", m.created_at AS "createdAt"`;

/** The channels' fields of a message from its columns of the same names (null when absent). */
function channelFields(m: MessageRow): Pick<Message, keyof typeof MESSAGE_CHANNEL_FIELDS> {
  const row: Partial<Record<string, unknown>> = m;
  return Object.fromEntries(Object.keys(MESSAGE_CHANNEL_FIELDS).map((key) => [key, row[key] ?? null])) as Pick<
    Message,
    keyof typeof MESSAGE_CHANNEL_FIELDS
  >;
}

export function messageView(m: MessageRow): Message {
  return {
    id: m.id,
    status: m.status,
    channel: m.channel,
    direction: m.direction === "inbound" ? "inbound" : "outbound",
    to: m.to,
    contact_id: m.contactId,
    metadata: (m.metadata ?? {}) as Record<string, string>,
    provider_message_id: m.providerMessageId,
    error: m.error,
    error_code: m.errorCode ?? null,
    ...channelFields(m),
    scheduled_at: m.scheduledAt?.toISOString() ?? null,
    canceled_at: m.canceledAt?.toISOString() ?? null,
    sent_at: m.sentAt?.toISOString() ?? null,
    delivered_at: m.deliveredAt?.toISOString() ?? null,
    read_at: m.readAt?.toISOString() ?? null,
    created_at: m.createdAt.toISOString(),
  };
}
