import { z } from "zod";
import { DEFAULT_GRAPH_API_BASE_URL, MEDIA_TYPES } from "../../providers/provider.ts";
import { ZHttpUrl, ZName, ZRate, ZSecret } from "../connect-fields.ts";
import { ZWhatsAppTemplate } from "../../whatsapp/template-schemas.ts";

// The WhatsApp channel's parts of the public contract, assembled into the shared shapes by
// the registry's order (server/channels/registry.ts).

// D16, D56: what `checkContent` requires of the content, stated in the document.
export const ZWhatsAppContent = z
  .strictObject({
    body: z.string().max(4096, "must be at most 4096 characters").optional().describe("Text; accepts `{{variable}}` placeholders."),
    media_url: z
      .url({ protocol: /^https?$/ })
      .max(2048)
      .optional(),
    media_type: z.enum(MEDIA_TYPES).optional().describe("Required with `media_url`."),
    template: ZWhatsAppTemplate.optional(),
  })
  .meta({
    override: ({ jsonSchema }) => {
      jsonSchema.anyOf = [{ required: ["body"] }, { required: ["media_url"] }, { required: ["template"] }];
      jsonSchema.dependentRequired = { media_url: ["media_type"] };
    },
  });

/**
 * A send step's WhatsApp content: the message's (D42), plus D43's fallback: with both
 * free-form content and a template, `"fallback": "template"` sends the free-form content
 * inside the contact's 24-hour window and the template outside it.
 */
export const ZStepWhatsAppContent = ZWhatsAppContent.extend({ fallback: z.literal("template").optional() });

/** The Message's field of a WhatsApp message: how Meta prices it (D89). */
export const WHATSAPP_MESSAGE_FIELDS = {
  pricing: z
    .object({
      category: z
        .string()
        .describe(
          "Meta's pricing category, such as `marketing`, `utility`, `authentication` or `service`. New values may be added: accept values you do not know.",
        ),
      type: z
        .string()
        .describe(
          "`regular` when the message is charged; `free_customer_service` or `free_entry_point` when it is free. New values may be added.",
        ),
    })
    .nullable()
    .describe("WhatsApp: how Meta prices the message, as its latest status report said; null until a report carried it."),
};

/** The connect request of a WhatsApp Cloud API number. */
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

/** D43, D71: what a contact's reachability adds on WhatsApp: the 24-hour window. */
export const WHATSAPP_REACH_FIELDS = {
  window: z.object({
    open: z
      .boolean()
      .describe("Whether the 24-hour window is open: a free-form message (text or media) may go. Test keys simulate an open window."),
    expires_at: z.string().nullable().describe("When the window closes (or closed); null when the contact never wrote."),
  }),
  template_required: z
    .boolean()
    .describe("The window is closed: only a template message would go (with `whatsapp_window_closed` the only reason, it would)."),
};
