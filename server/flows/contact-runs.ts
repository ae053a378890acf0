import type { Database } from "../db/client.ts";
import type { Columns } from "../db/rows.ts";

/** A contact's flow runs for its page, newest first, with their flows' names (one statement, by the contact's index). */
export async function contactRuns(database: Database, workspaceId: string, contactId: string) {
  const rows = await database.query<
    Columns<"flow_runs", "id" | "flow_id" | "status" | "mode" | "key" | "reason" | "created_at" | "ended_at"> & { flow_name: string }
  >(
    `SELECT r.id, r.flow_id, f.name AS flow_name, r.status::text AS status, r.mode::text AS mode, r.key, r.reason, r.created_at, r.ended_at
     FROM flow_runs r JOIN flows f ON f.workspace_id = r.workspace_id AND f.id = r.flow_id
     WHERE r.contact_id = $1 AND r.workspace_id = $2
     ORDER BY r.created_at DESC, r.id DESC
     LIMIT 100`,
    [contactId, workspaceId],
  );
  return rows.map((r) => ({
    id: r.id,
    flow_id: r.flow_id,
    flow_name: r.flow_name,
    status: r.status as "active" | "completed" | "stopped" | "failed",
    mode: r.mode as "test" | "live",
    key: r.key,
    reason: r.reason,
    created_at: new Date(r.created_at).toISOString(),
    ended_at: r.ended_at ? new Date(r.ended_at).toISOString() : null,
  }));
}
