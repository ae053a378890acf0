import { z } from "zod";
import type { Meta } from "../../trpc.ts";

export const deleteTagMeta: Meta = {
  openapi: {
    method: "DELETE",
    path: "/tags/{id}",
    tags: ["Tags"],
    summary: "Delete a tag",
    description:
      "Removes the tag from every contact that has it (no `contato.atualizado` event is sent for them) and deletes it. While an " +
      "active or paused flow names the tag (a branch's condition or a tag step of its current version): `409`, code `in_use`.",
    protect: true,
  },
  scope: "contacts:write",
  errors: ["in_use"],
};

export const ZDeleteTagRequest = z.strictObject({ id: z.string().max(64).describe("Prefix `tag_`.") });
export const ZDeleteTagResponse = z
  .object({ id: z.string(), deleted: z.literal(true) })
  .meta({ id: "DeletedTag", example: { id: "tag_0mwq18yo3jJFvnIzUvqf4q", deleted: true } });
