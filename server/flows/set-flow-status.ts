import type { Caller } from "../lib/caller.ts";
import type { AuditAction } from "../audit/audit-actions.ts";
import { recordAudit } from "../audit/record-audit.ts";
import type { Database, Handle } from "../db/client.ts";
import type { Columns } from "../db/rows.ts";
import { conflict, notFound } from "../lib/errors.ts";
import { wakePipeline } from "../outbox/wake.ts";
import type { FlowStatus } from "./flow-schemas.ts";
import { stopRuns } from "./stop-runs.ts";

/** D6's lifecycle: draft → active ↔ paused → archived; archived is final. */
const NEXT: Record<FlowStatus, FlowStatus[]> = {
  draft: ["active", "paused", "archived"],
  active: ["paused", "archived"],
  paused: ["active", "archived"],
  archived: [],
};

/** The audit log's name for each move (a flow never moves back to draft). */
const STATUS_ACTION = {
  draft: "flow.updated",
  active: "flow.activated",
  paused: "flow.paused",
  archived: "flow.archived",
} as const satisfies Record<FlowStatus, AuditAction>;

/** A paused flow's due steps wait here until it is resumed (their due time is kept on the run). */
export const PARKED = new Date("9999-12-31T00:00:00Z");

/**
 * Moves a flow. Pausing holds its runs where they are (their steps are parked when they come
 * due); resuming puts every held step back at its due time, or now if that has passed;
 * archiving stops the active runs with reason `flow archived` (`fluxo.parado` each).
 */
export async function setFlowStatus(database: Database, workspaceId: string, flowId: string, status: FlowStatus, actor: Caller) {
  await database.transaction(async (sql) => {
    const [flow] = await sql<Columns<"flows", "status" | "name">>(
      `SELECT status::text AS status, name FROM flows WHERE id = $1 AND workspace_id = $2 FOR NO KEY UPDATE`,
      [flowId, workspaceId],
    );
    if (!flow) throw notFound("flow", "flow_id");
    await moveFlow(sql, { id: flowId, workspaceId, ...flow }, status, actor);
  });
  wakePipeline();
  return { flow_id: flowId, status };
}

/**
 * `setFlowStatus`'s move inside the caller's transaction, for a flow whose row it has locked
 * (`FOR NO KEY UPDATE`: the counters of flow_step_stats, whose foreign key takes KEY SHARE on
 * the flow while the run engine holds its runs, must not wait on it) and read as `flow`: nothing when the flow already has `status`, a conflict
 * when D6's lifecycle forbids the move. The caller wakes the pipeline after its commit.
 */
export async function moveFlow(
  sql: Handle,
  flow: { id: string; workspaceId: string; status: FlowStatus; name: string },
  status: FlowStatus,
  actor: Caller,
): Promise<void> {
  if (flow.status === status) return;
  if (!NEXT[flow.status].includes(status)) {
    const article = flow.status === "active" || flow.status === "archived" ? "An" : "A";
    throw conflict("invalid_flow_status", `${article} ${flow.status} flow cannot become ${status}.`, "status");
  }
  await sql(`UPDATE flows SET status = $2::"FlowStatus", updated_at = now() WHERE workspace_id = $3 AND id = $1`, [
    flow.id,
    status,
    flow.workspaceId,
  ]);
  await recordAudit(sql, actor, {
    workspaceId: flow.workspaceId,
    action: STATUS_ACTION[status],
    target: { type: "flow", id: flow.id },
    detail: { name: flow.name, from: flow.status, to: status },
  });
  if (status === "archived") await stopRuns(sql, { flowId: flow.id, workspaceId: flow.workspaceId }, "flow archived");
  if (status === "active" && flow.status === "paused") {
    await sql(
      // A wake (an event or a report that came while paused, D63, D64) runs at once; a run's own
      // step at its due time. Both tables of the flow's workspace, $3, and the time read once
      // beside them (D87: Citus refuses now() inside a CASE of an UPDATE).
      `UPDATE jobs j SET run_at = CASE WHEN j.payload ? 'wake' THEN t.now ELSE greatest(coalesce(r.next_step_at, t.now), t.now) END
       FROM flow_runs r, (SELECT now() AS now) t WHERE j.workspace_id = $3 AND r.workspace_id = $3 AND j.kind = 'flow.step' AND j.subject_id = r.id
         AND r.flow_id = $1 AND r.status = 'active' AND j.run_at >= $2`,
      [flow.id, PARKED, flow.workspaceId],
    );
  }
}
