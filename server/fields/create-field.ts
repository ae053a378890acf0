import type { z } from "zod";
import type { Database } from "../db/client.ts";
import { conflict, isUniqueViolation } from "../lib/errors.ts";
import { newId } from "../lib/ids.ts";
import { fieldView, type CustomField, type ZCreateFieldRequest } from "./field-schemas.ts";

/** D11: a key that exists already is a 409 with `param` = `key`. */
export async function createField(
  database: Database,
  workspaceId: string,
  input: z.output<typeof ZCreateFieldRequest>,
): Promise<CustomField> {
  try {
    // D87: nothing of the enum column returned (Citus refuses its text cast in RETURNING).
    const row = await database.prisma.customField.create({
      data: { id: newId("field"), workspaceId, name: input.name, key: input.key, type: input.type },
      select: { id: true, name: true, key: true, createdAt: true },
    });
    return fieldView({ ...row, type: input.type });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict("field_key_taken", `A custom field with key "${input.key}" already exists.`, "key");
    throw err;
  }
}
