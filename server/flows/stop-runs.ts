import type { Handle } from "../db/client.ts";
import { causeParams } from "../observability/request-context.ts";
import { insertEventsFrom } from "../events/record-event.ts";
import { newIdSql } from "../lib/ids.ts";
import type { Columns } from "../db/rows.ts";
import { FlowCounts, type RunState } from "./stat-counters.ts";

/** A run stopped: the Flow run as enroll answers it (D66: with its `key`), and why it stopped. */
export type StoppedRun = {
  id: string;
  flow_id: string;
  contact_id: string;
  status: "stopped";
  key: string | null;
  created_at: string;
  reason: string | null;
};

// Stops active runs in one statement: each becomes `stopped` with its reason, its pending
// step leaves the outbox, its history records why, and `fluxo.parado` is recorded (D7, D31:
// `reason` in the event only when one was given). Used by unenroll and by archiving a flow.
// The runs are locked in id order first, as the run engine locks the runs it advances
// together, so the two never wait on each other in a circle. The events carry the cause of the
// request (or job) that stopped the runs, `$2` and `$3` (D54), and fan out to webhook deliveries
// with them; the runs to stop are `$4` on. Each run stopped comes back as its statistics now
// count it: it counted the same as `active` before (D69).
const STOP = `
  WITH l AS (SELECT id FROM flow_runs WHERE status = 'active' AND %WHERE% ORDER BY id FOR UPDATE),
  s AS (
    UPDATE flow_runs SET status = 'stopped', reason = $1, next_step_at = NULL, ended_at = now(), updated_at = now()
    WHERE id IN (SELECT id FROM l) AND status = 'active'
    RETURNING id, flow_id, contact_id, workspace_id, mode, key, created_at, version, status,
      converted_at IS NOT NULL AS converted, coalesce(waiting_at, position) AS place
  ),
  j AS (DELETE FROM jobs WHERE kind = 'flow.step' AND (workspace_id, subject_id) IN (SELECT workspace_id, id FROM s)),
  h AS (
    INSERT INTO flow_run_history (workspace_id, run_id, kind, detail)
    SELECT workspace_id, id, 'stopped', CASE WHEN $1::text IS NULL THEN '{}'::jsonb ELSE jsonb_build_object('reason', $1::text) END FROM s
  ),
  ${insertEventsFrom(
    "e",
    `SELECT ${newIdSql("event")}, workspace_id, 'fluxo.parado', mode,
      jsonb_build_object('id', id, 'flow_id', flow_id, 'contact', contact_id, 'status', 'stopped')
        || CASE WHEN $1::text IS NULL THEN '{}'::jsonb ELSE jsonb_build_object('reason', $1::text) END,
      contact_id, now(), $2, $3
    FROM s`,
  )}
  SELECT id, workspace_id, flow_id, contact_id, key, created_at, mode::text AS mode, version, status::text AS status, converted, place FROM s ORDER BY id`;

export async function stopRuns(
  sql: Handle,
  where:
    | { flowId: string; workspaceId: string }
    | { runId: string; workspaceId: string }
    | { workspaceId: string; contactId: string | null; key: string | null; mode: "test" | "live"; flowId: string | null },
  reason: string | null,
): Promise<StoppedRun[]> {
  const [which, params] =
    "contactId" in where
      ? [
          `workspace_id = $4 AND mode = $5::"KeyMode" AND ($6::text IS NULL OR flow_id = $6) AND ($7::text IS NULL OR contact_id = $7)
            AND ($8::text IS NULL OR key = $8)`,
          [where.workspaceId, where.mode, where.flowId, where.contactId, where.key],
        ]
      : "runId" in where
        ? ["id = $4 AND workspace_id = $5", [where.runId, where.workspaceId]]
        : ["workspace_id = $5 AND flow_id = $4", [where.flowId, where.workspaceId]];
  const rows = await sql<Columns<"flow_runs", "id" | "flow_id" | "contact_id" | "key" | "created_at"> & RunState>(
    STOP.replace("%WHERE%", which),
    [reason, ...causeParams(), ...params],
  );
  const counts = new FlowCounts();
  for (const run of rows) {
    counts.run({ ...run, status: "active" }, run).entry({ kind: "stopped", position: null, detail: null }, run);
  }
  await counts.write(sql);
  return rows.map((r) => ({
    id: r.id,
    flow_id: r.flow_id,
    contact_id: r.contact_id,
    status: "stopped",
    key: r.key,
    created_at: new Date(r.created_at).toISOString(),
    reason,
  }));
}
