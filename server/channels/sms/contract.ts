import { z } from "zod";
import { DEFAULT_TWILIO_API_BASE_URL } from "../../providers/twilio-callback.ts";
import { ZHttpUrl, ZName, ZRate, ZSecret } from "../connect-fields.ts";
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

/** D94: the connect request of a Twilio account. */
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
    api_base_url: ZHttpUrl.optional().describe(`The Twilio API base; ${DEFAULT_TWILIO_API_BASE_URL} by default.`),
    rate_per_second: ZRate,
  })
  .superRefine((v, ctx) => {
    if ((v.from === undefined) === (v.messaging_service_sid === undefined)) {
      ctx.addIssue({ code: "custom", path: ["from"], message: "give either from or messaging_service_sid" });
    }
  });

/** D97: the month's usage of sms: its segments, what carriers bill. */
export const SMS_USAGE_FIELDS = {
  sms_segments: z
    .int()
    .describe("The segments of this month's live SMS (canceled ones left out): what carriers bill, one SMS being one or more segments."),
};
