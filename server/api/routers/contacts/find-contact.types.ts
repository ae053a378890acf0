import { z } from "zod";
import { ZContact } from "../../../contacts/contact-schemas.ts";
import type { Meta } from "../../trpc.ts";

export const findContactMeta: Meta = {
  openapi: {
    method: "GET",
    path: "/contacts",
    tags: ["Contacts"],
    summary: "Find a contact by phone or e-mail",
    description: "Give `phone` or `email`; with both, `phone` is used. Neither: `400` with `param` = `phone`.",
    protect: true,
  },
  scope: "contacts:read",
  errors: ["invalid_phone", "invalid_email", "resource_missing"],
};

export const ZFindContactRequest = z.object({
  phone: z.string().optional().describe("Any common notation.").meta({ example: "+5511987654321" }),
  email: z.string().optional().meta({ example: "ana@example.com" }),
});

export { ZContact as ZFindContactResponse };
