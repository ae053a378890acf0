import { z } from "zod";
import { ZHttpUrl, ZName, ZRate } from "../connect-fields.ts";

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

/** The connect request of an SMTP relay. */
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
