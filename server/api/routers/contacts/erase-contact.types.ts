import { z } from "zod";
import { ZErasedContact } from "../../../events/event-schemas.ts";
import type { Meta } from "../../trpc.ts";

export const eraseContactMeta: Meta = {
  openapi: {
    method: "DELETE",
    path: "/contacts/{id}",
    tags: ["Contacts"],
    summary: "Erase a contact",
    description:
      "Erases a contact for privacy laws: its journeys stop (`fluxo.parado` with reason `contact_erased`), its messages not yet " +
      "handed to a provider are canceled, its phone, e-mail, name, fields and tags are removed, and its messages and events keep " +
      "no address or text (each becomes `[erased]`). Usage counts are kept. The contact then answers `404`. Emits `contato.apagado`.",
    protect: true,
  },
  scope: "contacts:write",
};

export const ZEraseContactRequest = z.strictObject({
  id: z.string().describe("Prefix `ct_`.").meta({ example: "ct_0mwq18yo3jJFvnIzUvqf4q" }),
});

export { ZErasedContact as ZEraseContactResponse };
