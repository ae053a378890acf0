import { z } from "zod";

// A WhatsApp channel's message templates (D41): the service keeps a copy of what the Cloud API
// lists at `GET /{waba_id}/message_templates`, synced when the channel is connected, every 15
// minutes (the `whatsapp.templates_sync` job), on demand, and on Meta's
// `message_template_status_update` webhook (sync-templates.ts). Sends with `whatsapp.template`
// are checked against this copy before anything is written (D42, check-template-send.ts).
// This file: the shapes of a stored template and of a send's `whatsapp.template`.

export const TEMPLATE_CATEGORIES = ["marketing", "utility", "authentication"] as const;
export const TEMPLATE_STATUSES = ["approved", "pending", "rejected", "paused", "disabled"] as const;
export type TemplateStatus = (typeof TEMPLATE_STATUSES)[number];

export const ZTemplate = z
  .object({
    id: z.string().describe("Prefix `tpl_`."),
    channel_id: z.string().describe("The WhatsApp channel whose business account holds the template. Prefix `ch_`."),
    name: z.string(),
    language: z.string().describe("Meta's language code, such as `en_US` or `pt_BR`."),
    category: z.enum(TEMPLATE_CATEGORIES),
    status: z.enum(TEMPLATE_STATUSES).describe("Only `approved` templates can be sent."),
    parameters: z
      .array(z.string())
      .describe(
        "The ordered names of the template's parameters: the header's, then the body's. Named parameters keep their names; positional ones are `1`, `2`, … (a positional header parameter is `header_1`).",
      ),
    body: z.string().describe("The body text as Meta holds it, with its `{{…}}` parameters."),
    updated_at: z.string().meta({ format: "date-time" }),
  })
  .meta({ id: "WhatsAppTemplate" });

export type Template = z.infer<typeof ZTemplate>;

/** D42: an approved template of the channel, its parameters filled (placeholders allowed). */
export const ZWhatsAppTemplate = z
  .strictObject({
    name: z.string().min(1).max(512),
    language: z.string().min(1).max(32).describe("The template's language code, such as `en_US`."),
    parameters: z
      .record(z.string().max(64), z.string().max(1024, "must be at most 1024 characters"))
      .optional()
      .describe("A text for each of the template's parameters, by name; texts accept `{{variable}}` placeholders."),
  })
  .describe("Send an approved message template instead of `body` or `media_url`: required outside the contact's 24-hour window.")
  .meta({
    id: "WhatsAppTemplateSend",
    example: { name: "order_shipped", language: "en_US", parameters: { "1": "{{name}}", "2": "#1042" } },
  });
