import { z } from "zod";
import { SMS_BODY_MAX } from "./segments.ts";

// The SMS channel's parts of the public contract, assembled into the shared shapes by the
// registry's order (server/channels/registry.ts).

// D16, D56: what `checkContent` requires of the content, stated in the document.
export const ZSmsContent = z
  .strictObject({
    body: z
      .string()
      .max(SMS_BODY_MAX, `must be at most ${SMS_BODY_MAX} characters`)
      .optional()
      .describe(
        "Text; accepts `{{variable}}` placeholders. At most 1,600 characters, also once rendered. Sent in segments of 160 GSM-7 characters (153 each when longer) or 70 UCS-2 characters (67 each) when a character is outside GSM-7.",
      ),
  })
  .meta({ override: ({ jsonSchema }) => void (jsonSchema.required = ["body"]) });

/** D97: the Message's field of an sms, what it keeps of its rendered body. */
export const SMS_MESSAGE_FIELDS = {
  sms: z
    .object({
      encoding: z.enum(["GSM-7", "UCS-2"]).describe("`GSM-7` when every character is in the GSM 03.38 alphabet, else `UCS-2`."),
      segments: z.int().describe("How many SMS segments the body is sent in (each billed by the carrier)."),
    })
    .nullable()
    .describe("SMS: the encoding and segment count of the rendered body; null on other channels and on inbound messages."),
};
