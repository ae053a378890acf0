import { z } from "zod";
import { ZContact } from "../../../contacts/contact-schemas.ts";
import type { Meta } from "../../trpc.ts";

export const findContactMeta: Meta = {
  openapi: {
    method: "GET",
    path: "/contacts",
    tags: ["Contacts"],
    summary: "List contacts, or find one by phone, e-mail or WhatsApp user id",
    description:
      "With only `whatsapp_user_id`, `phone` or `email` (with several, the first of these is used): the one contact that has it, or `404`. " +
      "Otherwise (none of them, or any of `limit`, `after`, `tag_id`, `created_after`, `updated_after` beside them): " +
      "an array of contacts, ordered by `created_at` then `id`, filtered by every parameter given; " +
      'a `Link` header with `rel="next"` gives the next page with the same filters.',
    protect: true,
  },
  scope: "contacts:read",
  errors: ["invalid_phone", "invalid_email", "invalid_whatsapp_user_id", "resource_missing"],
};

const ZTimestamp = z.iso
  .datetime({ offset: true, error: "must be an ISO 8601 timestamp, such as 2026-11-21T10:00:00Z" })
  .transform((s) => new Date(s));

export const ZFindContactRequest = z.object({
  phone: z.string().optional().describe("Any common notation.").meta({ example: "+5511987654321" }),
  email: z.string().optional().meta({ example: "ana@example.com" }),
  whatsapp_user_id: z.string().max(256).optional().describe("A WhatsApp user id.").meta({ example: "US.13491208655302741918" }),
  tag_id: z.string().max(64).optional().describe("Only contacts with this tag. Prefix `tag_`."),
  created_after: ZTimestamp.optional().describe("Only contacts created after this time."),
  updated_after: ZTimestamp.optional().describe("Only contacts changed after this time."),
  // No default here: whether `limit` was given decides between the list and the one contact.
  limit: z.coerce.number().int().min(1).max(1000).optional().describe("Page size, 1 to 1000 (default 100)."),
  after: z.string().min(1).optional().describe("An id from the previous page: this page starts after it."),
});

export const ZFindContactResponse = z.union([ZContact, z.array(ZContact)]);

/** The list's parameters: given any of them (or none of `phone`, `email`, `whatsapp_user_id`), GET /contacts lists. */
export const LIST_ONLY = ["tag_id", "created_after", "updated_after", "limit", "after"] as const;
