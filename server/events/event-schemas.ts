import { z } from "zod";
import { ZContact } from "../contacts/contact-schemas.ts";
import { CHANNELS } from "../messaging/message-schemas.ts";
import type { EventName } from "./event-names.ts";

// What each event's webhook body looks like (interface.md "Events", D31), for the `webhooks`
// section of the OpenAPI document (D56) and the typed client (D60). The names stay Portuguese
// (they are the contract); each has an English description for people.

const ZMessageEventData = z
  .object({
    id: z.string().describe("The message id (prefix `msg_`)."),
    channelType: z.enum(CHANNELS),
    status: z.enum(["sent", "delivered", "read", "failed", "canceled"]),
    contact: z.string().nullable().describe("The contact id (prefix `ct_`)."),
    error: z.string().optional().describe("Why it failed (`mensagem.falhou` only)."),
    error_code: z
      .string()
      .nullable()
      .optional()
      .describe(
        "`mensagem.falhou` only: the provider's code (`smtp_550`, `sms_30003`, Meta's number as text), `bounce_hard` for a bounce report, or ours; null when none.",
      ),
  })
  .meta({ id: "MessageEventData" });

const ZInboundEventData = z
  .object({
    id: z.string().describe("The inbound message's id (prefix `msg_`)."),
    channelType: z.enum(["whatsapp", "sms"]),
    contact: z.string().describe("The contact who wrote (prefix `ct_`), created when the number was unknown."),
    direction: z.literal("inbound"),
    text: z
      .string()
      .nullable()
      .describe("The text, a media caption, or the title of the button or list row chosen; null for media without a caption."),
    media_type: z.string().nullable().describe("`image`, `video`, `audio`, `document` or `sticker` for WhatsApp media; null otherwise."),
  })
  .meta({ id: "InboundMessageEventData" });

const ZFlowEventData = z
  .object({
    id: z.string().describe("The run id (prefix `run_`)."),
    flow_id: z.string(),
    contact: z.string().describe("The contact id (prefix `ct_`)."),
    status: z.enum(["completed", "stopped", "failed"]),
    reason: z.string().optional().describe("Why the run stopped, when a reason was given."),
  })
  .meta({ id: "FlowEventData" });

export const ZErasedContact = z
  .object({ id: z.string().describe("The erased contact's id (prefix `ct_`)."), erased: z.literal(true) })
  .meta({ id: "ErasedContact" });

const ZChannelEventData = z
  .object({
    channel_id: z.string().describe("The channel id (prefix `ch_`)."),
    type: z.enum(CHANNELS),
    status: z.enum(["paused", "connected"]),
    reason: z
      .enum(["payment", "policy", "complaint_rate", "bounce_rate"])
      .describe(
        "Why it was paused: `payment` or `policy` (WhatsApp stopped the number; every live send is refused), `complaint_rate` or `bounce_rate` (journey sends only).",
      ),
    paused_at: z.iso.datetime().optional().describe("`canal.pausado` only: when it was paused (ISO 8601)."),
  })
  .meta({ id: "ChannelEventData" });

export const EVENTS: Record<EventName, { description: string; data: z.ZodType }> = {
  "mensagem.enviada": { description: "A message left the service (status `sent`).", data: ZMessageEventData },
  "mensagem.entregue": { description: "A message was delivered to the recipient's device (status `delivered`).", data: ZMessageEventData },
  "mensagem.lida": { description: "The recipient read a message (status `read`).", data: ZMessageEventData },
  "mensagem.falhou": { description: "Sending a message failed (status `failed`); `data.error` says why.", data: ZMessageEventData },
  "mensagem.recebida": {
    description: "A contact wrote to a WhatsApp channel; their 24-hour window is open from now.",
    data: ZInboundEventData,
  },
  "mensagem.cancelada": {
    description: "A message was canceled before it was handed to the provider (status `canceled`); it will not be sent.",
    data: ZMessageEventData,
  },
  "fluxo.concluido": { description: "A contact went through a flow to its end.", data: ZFlowEventData },
  "fluxo.parado": {
    description: "A contact left a flow before its end (unenrolled, or a step could not run); carries `reason` when one was given.",
    data: ZFlowEventData,
  },
  "contato.criado": { description: "A contact was created; `data` is the contact.", data: ZContact },
  "contato.atualizado": { description: "A stored value of a contact changed; `data` is the contact as it now is.", data: ZContact },
  "contato.apagado": {
    description: "A contact was erased (`DELETE /contacts/{id}`); its messages stay, with their addresses and texts erased.",
    data: ZErasedContact,
  },
  "canal.pausado": {
    description:
      "A channel was paused: every live send on it is refused (`payment`, `policy`), or journey sends skip (`complaint_rate`, `bounce_rate`) until it is resumed.",
    data: ZChannelEventData,
  },
  "canal.retomado": { description: "A paused channel was resumed and sends again.", data: ZChannelEventData },
};

/** The body of a delivery (server/webhooks/event-body.ts) for one event name. */
export function eventBodySchema(name: EventName) {
  return z.object({
    id: z.string().describe("The event id (prefix `evt_`), the same on every retry and replay: deduplicate on it."),
    event: z.literal(name),
    type: z.literal(name).describe("The same as `event`, under the name Standard Webhooks tooling reads."),
    timestamp: z.iso.datetime().describe("When the event was recorded (ISO 8601, milliseconds, UTC)."),
    namespace: z.string().describe("The workspace id."),
    mode: z.enum(["test", "live"]).describe("The mode of the key (or the dashboard action) that caused the event."),
    data: EVENTS[name].data,
  });
}
