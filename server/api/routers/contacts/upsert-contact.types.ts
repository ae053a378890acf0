import { ZContact, ZUpsertContactRequest } from "../../../contacts/contact-schemas.ts";
import type { Meta } from "../../trpc.ts";

export const upsertContactMeta: Meta = {
  openapi: {
    method: "POST",
    path: "/contacts",
    tags: ["Contacts"],
    summary: "Create or update a contact",
    description:
      "Matched by WhatsApp user id, then by phone, or by e-mail when neither is given; fields left out are kept. Needs `phone`, `email` or `whatsapp_user_id`. " +
      "`tags` replaces the tag set; `fields` is merged key by key (`null` removes a key). " +
      "Emits `contato.criado` on creation and `contato.atualizado` when a stored value changed.",
    protect: true,
  },
  scope: "contacts:write",
  idempotent: true,
  errors: [
    "invalid_phone",
    "invalid_email",
    "invalid_whatsapp_user_id",
    "unknown_tag",
    "unknown_field",
    "invalid_field_value",
    "phone_taken",
    "email_taken",
    "whatsapp_user_id_taken",
    "resource_missing",
  ],
};

export { ZContact as ZUpsertContactResponse, ZUpsertContactRequest };
