import { z } from "zod";

// The e-mail channel's parts of the public contract, assembled into the shared shapes by the
// registry's order (server/channels/registry.ts).

// D16, D56: what `checkContent` requires of the content, stated in the document.
export const ZEmailContent = z
  .strictObject({
    subject: z.string().max(998, "must be at most 998 characters").optional(),
    html: z.string().max(200_000).optional().describe("HTML body; accepts placeholders (their values are HTML-escaped)."),
    reply_to: z.string().max(320).optional(),
    preview_text: z.string().max(500).optional(),
  })
  .meta({ override: ({ jsonSchema }) => void (jsonSchema.required = ["html"]) });
