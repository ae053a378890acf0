import { z } from "zod";
import type { Meta } from "../../trpc.ts";

export const deleteFieldMeta: Meta = {
  openapi: {
    method: "DELETE",
    path: "/custom-fields/{id}",
    tags: ["Custom fields"],
    summary: "Delete a custom field",
    description:
      "Removes the field's value from every contact (no `contato.atualizado` event is sent for them) and deletes the field. While " +
      "an active or paused flow names its key (a branch's condition or a set_field step of its current version): `409`, code `in_use`.",
    protect: true,
  },
  scope: "contacts:write",
  errors: ["in_use"],
};

export const ZDeleteFieldRequest = z.strictObject({ id: z.string().max(64).describe("Prefix `field_`.") });
export const ZDeleteFieldResponse = z
  .object({ id: z.string(), deleted: z.literal(true) })
  .meta({ id: "DeletedCustomField", example: { id: "field_0mwq18yo3jJFvnIzUvqf4q", deleted: true } });
