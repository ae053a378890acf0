import type { z } from "zod";
import type { Database } from "../db/client.ts";
import { conflict, isUniqueViolation } from "../lib/errors.ts";
import { newId } from "../lib/ids.ts";
import { tagView, type Tag, type ZCreateTagRequest } from "./tag-schemas.ts";

/** D11: a name that exists already, compared case-insensitively after trimming, is a 409. */
export async function createTag(database: Database, workspaceId: string, input: z.output<typeof ZCreateTagRequest>): Promise<Tag> {
  try {
    const row = await database.prisma.tag.create({
      data: { id: newId("tag"), workspaceId, name: input.name, nameKey: input.name.toLowerCase(), color: input.color ?? null },
    });
    return tagView(row);
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict("tag_name_taken", `A tag named "${input.name}" already exists.`, "name");
    throw err;
  }
}
