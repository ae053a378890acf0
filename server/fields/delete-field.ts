import type { Database } from "../db/client.ts";
import { refuseIfNamed } from "../flows/flow-references.ts";
import { AppError } from "../lib/errors.ts";

/**
 * DELETE /custom-fields/{id} (D99): the field and its value on every contact go together (no
 * `contato.atualizado` per contact), unless a flow that can still run names its key (`in_use`).
 */
export async function deleteField(database: Database, workspaceId: string, id: string): Promise<{ id: string; deleted: true }> {
  await database.transaction(async (sql) => {
    const [field] = await sql<{ key: string }>(`SELECT key FROM custom_fields WHERE id = $1 AND workspace_id = $2 FOR UPDATE`, [
      id,
      workspaceId,
    ]);
    if (!field) throw new AppError("resource_missing", "No such custom field.", { param: "id" });
    await refuseIfNamed(sql, workspaceId, { field: field.key }, "custom field");
    await sql(`UPDATE contacts SET fields = fields - $2::text WHERE workspace_id = $1 AND fields ? $2::text`, [workspaceId, field.key]);
    await sql(`DELETE FROM custom_fields WHERE id = $1 AND workspace_id = $2`, [id, workspaceId]);
  });
  return { id, deleted: true };
}
