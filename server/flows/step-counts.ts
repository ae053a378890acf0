import type { Database } from "../db/client.ts";
import type { Columns } from "../db/rows.ts";
import { notFound } from "../lib/errors.ts";

// Where the runs of a flow's current version are, step by step: how many passed each step,
// how many wait in it (a wait step holding them, or a run about to start at its first step),
// and how many left the flow there (stopped or failed). Positions are the engine's paths
// ([2, "then", 0]); a run's place is its latest entry of history that has one.

type Count = { position: (number | string)[]; passed: number; waiting: number; left: number };

export async function stepCounts(database: Database, workspaceId: string, flowId: string) {
  const [flow] = await database.query<Columns<"flows", "version">>(`SELECT version FROM flows WHERE id = $1 AND workspace_id = $2`, [
    flowId,
    workspaceId,
  ]);
  if (!flow) throw notFound("flow", "flow_id");
  const [reached, places] = await Promise.all([
    // Every run of the version that reached a step (ran it, skipped it, or started waiting in it).
    database.query<{ position: (number | string)[]; runs: number }>(
      // OFFSET 0 keeps the history read run by run through its index (a hash join would read all of it).
      `SELECT h.position, count(DISTINCT r.id)::int AS runs
       FROM flow_runs r
       CROSS JOIN LATERAL (
         SELECT position FROM flow_run_history
         WHERE run_id = r.id AND kind IN ('step', 'skipped', 'waiting') AND position IS NOT NULL OFFSET 0
       ) h
       WHERE r.flow_id = $1 AND r.version = $2
       GROUP BY h.position`,
      [flowId, flow.version],
    ),
    // Where each run that is not done stands (active) or stood when it left (stopped, failed).
    database.query<
      Columns<"flow_runs", "status"> & Columns<"flow_run_history", "kind"> & { position: (number | string)[] | null; runs: number }
    >(
      `SELECT r.status::text AS status, last.kind,
              CASE WHEN last.kind = 'waiting' THEN last.position WHEN last.kind = 'enrolled' THEN '[0]'::jsonb ELSE r.position END AS position,
              count(*)::int AS runs
       FROM flow_runs r
       CROSS JOIN LATERAL (
         SELECT h.kind, h.position FROM flow_run_history h
         WHERE h.run_id = r.id AND h.kind IN ('enrolled', 'waiting', 'step', 'skipped')
         ORDER BY h.at DESC, h.id DESC LIMIT 1
       ) last
       WHERE r.flow_id = $1 AND r.version = $2 AND r.status IN ('active', 'stopped', 'failed')
       GROUP BY 1, 2, 3`,
      [flowId, flow.version],
    ),
  ]);
  const counts = new Map<string, Count>();
  const at = (position: (number | string)[]) => {
    const key = JSON.stringify(position);
    let count = counts.get(key);
    if (!count) counts.set(key, (count = { position, passed: 0, waiting: 0, left: 0 }));
    return count;
  };
  for (const r of reached) at(r.position).passed += r.runs;
  for (const p of places) {
    if (!p.position) continue;
    const count = at(p.position);
    if (p.status === "active") count.waiting += p.runs;
    else count.left += p.runs;
    // A run held by a wait (or that left while held there) reached it without passing it.
    if (p.kind === "waiting") count.passed -= p.runs;
  }
  return { version: flow.version, steps: [...counts.values()].map((c) => ({ ...c, passed: Math.max(0, c.passed) })) };
}
