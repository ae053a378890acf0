import { z } from "zod";
import { ZContact } from "../../../contacts/contact-schemas.ts";
import type { Meta } from "../../trpc.ts";

export const getContactMeta: Meta = {
  openapi: { method: "GET", path: "/contacts/{id}", tags: ["Contacts"], summary: "Get a contact", protect: true },
  scope: "contacts:read",
};

export const ZGetContactRequest = z.object({ id: z.string().describe("Prefix `ct_`.") });

export { ZContact as ZGetContactResponse };
