import type { Database } from "../db/client.ts";
import { refuseIfNamed } from "../flows/flow-references.ts";
import { AppError } from "../lib/errors.ts";

/**
 * DELETE /tags/{id} (D99): the tag leaves every contact with it (no `contato.atualizado` per
 * contact), unless a flow that can still run names it (`in_use`). The tag's row is locked first,
 * so a concurrent delete waits and then finds it gone.
 */
export async function deleteTag(database: Database, workspaceId: string, id: string): Promise<{ id: string; deleted: true }> {
  await database.transaction(async (sql) => {
    const [tag] = await sql(`SELECT id FROM tags WHERE id = $1 AND workspace_id = $2 FOR UPDATE`, [id, workspaceId]);
    if (!tag) throw new AppError("resource_missing", "No such tag.", { param: "id" });
    await refuseIfNamed(sql, workspaceId, { tag: id }, "tag");
    // contact_tags rows go with it (ON DELETE CASCADE).
    await sql(`DELETE FROM tags WHERE id = $1 AND workspace_id = $2`, [id, workspaceId]);
  });
  return { id, deleted: true };
}
