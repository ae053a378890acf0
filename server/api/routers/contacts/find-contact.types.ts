import { z } from "zod";
import { ZContact } from "../../../contacts/contact-schemas.ts";
import type { Meta } from "../../trpc.ts";

export const findContactMeta: Meta = {
  openapi: {
    method: "GET",
    path: "/contacts",
    tags: ["Contacts"],
    summary: "Find a contact by phone or e-mail",
    description: "Give `phone` or `email`; with both, `phone` is used. Neither: `400` with `param` = `phone` (D13).",
    protect: true,
  },
  scope: "contacts:read",
};

export const ZFindContactRequest = z.object({
  phone: z.string().optional().describe("Any common notation (D1).").meta({ example: "+5511987654321" }),
  email: z.string().optional().meta({ example: "ana@example.com" }),
});

export { ZContact as ZFindContactResponse };
