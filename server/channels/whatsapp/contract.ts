import { z } from "zod";
import { MEDIA_TYPES } from "../../providers/provider.ts";
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
