import type { Handle } from "../db/client.ts";

export type StoppedRun = { id: string; flow_id: string; status: "stopped"; reason: string | null };

// Stops active runs in one statement: each becomes `stopped` with its reason, its pending
// step leaves the outbox, its history records why, and `fluxo.parado` is recorded (D7, D31:
// `reason` in the event only when one was given). Used by unenroll and by archiving a flow.
// The runs are locked in id order first, as the run engine locks the runs it advances
// together, so the two never wait on each other in a circle.
const STOP = `
  WITH l AS (SELECT id FROM flow_runs WHERE status = 'active' AND %WHERE% ORDER BY id FOR UPDATE),
  s AS (
    UPDATE flow_runs SET status = 'stopped', reason = $1, next_step_at = NULL, ended_at = now(), updated_at = now()
    WHERE id IN (SELECT id FROM l) AND status = 'active'
    RETURNING id, flow_id, contact_id, workspace_id, mode
  ),
  j AS (DELETE FROM jobs WHERE kind = 'flow.step' AND subject_id IN (SELECT id FROM s)),
  h AS (
    INSERT INTO flow_run_history (run_id, kind, detail)
    SELECT id, 'stopped', CASE WHEN $1::text IS NULL THEN '{}'::jsonb ELSE jsonb_build_object('reason', $1::text) END FROM s
  ),
  e AS (
    INSERT INTO events (id, workspace_id, name, mode, data, contact_id, created_at)
    SELECT svc_new_id('evt'), workspace_id, 'fluxo.parado', mode,
      jsonb_build_object('id', id, 'flow_id', flow_id, 'contact', contact_id, 'status', 'stopped')
        || CASE WHEN $1::text IS NULL THEN '{}'::jsonb ELSE jsonb_build_object('reason', $1::text) END,
      contact_id, now()
    FROM s
  )
  SELECT id, flow_id FROM s ORDER BY id`;

export async function stopRuns(
  sql: Handle,
  where: { flowId: string } | { runId: string; workspaceId: string } | { contactId: string; mode: "test" | "live"; flowId: string | null },
  reason: string | null,
): Promise<StoppedRun[]> {
  const rows =
    "contactId" in where
      ? await sql<{ id: string; flow_id: string }>(
          STOP.replace("%WHERE%", 'contact_id = $2 AND mode = $3::"KeyMode" AND ($4::text IS NULL OR flow_id = $4)'),
          [reason, where.contactId, where.mode, where.flowId],
        )
      : "runId" in where
        ? await sql<{ id: string; flow_id: string }>(STOP.replace("%WHERE%", "id = $2 AND workspace_id = $3"), [
            reason,
            where.runId,
            where.workspaceId,
          ])
        : await sql<{ id: string; flow_id: string }>(STOP.replace("%WHERE%", "flow_id = $2"), [reason, where.flowId]);
  return rows.map((r) => ({ id: r.id, flow_id: r.flow_id, status: "stopped", reason }));
}
