import type { Database } from "../db/client.ts";
import type { CallerInWorkspace } from "../lib/caller.ts";
import { notFound } from "../lib/errors.ts";
import { listPage, type Cursor, type PageQuery } from "../lib/pagination.ts";
import type { RunStatus, Step } from "./flow-schemas.ts";
import { publicEntry, publicRun, type RunHistoryEntry, type RunRecord, type StoredEntry } from "./run-views.ts";

// D82: runs as the API reads them, in the key's mode (D40).

const RUN_COLUMNS = `r.id, r.flow_id, r.contact_id, r.status::text AS status, r.key, r.version, r.position, r.waiting_at, r.converted_at, r.created_at, r.ended_at`;

type Actor = Pick<CallerInWorkspace, "workspaceId" | "mode">;

/** The steps of each (flow, version) of the runs, read once each. */
async function versionSteps(database: Database, workspaceId: string, runs: RunRecord[]): Promise<Map<string, Step[]>> {
  const pairs = [...new Map(runs.map((r) => [`${r.flow_id}:${r.version}`, r])).values()];
  if (pairs.length === 0) return new Map();
  const rows = await database.query<{ flow_id: string; version: number; steps: Step[] }>(
    `SELECT v.flow_id, v.version, v.steps FROM unnest($1::text[], $2::int[]) AS k(flow_id, version)
     JOIN flow_versions v ON v.workspace_id = $3 AND v.flow_id = k.flow_id AND v.version = k.version`,
    [pairs.map((r) => r.flow_id), pairs.map((r) => r.version), workspaceId],
  );
  return new Map(rows.map((v) => [`${v.flow_id}:${v.version}`, v.steps]));
}

/** GET /runs/{run_id}: the run with its history, oldest first. */
export async function getRunWithHistory(database: Database, actor: Actor, runId: string) {
  const [run] = await database.query<RunRecord>(
    `SELECT ${RUN_COLUMNS} FROM flow_runs r WHERE r.id = $1 AND r.workspace_id = $2 AND r.mode = $3::"KeyMode"`,
    [runId, actor.workspaceId, actor.mode],
  );
  if (!run) throw notFound("run", "run_id");
  const [steps, history] = await Promise.all([
    versionSteps(database, actor.workspaceId, [run]),
    database.query<StoredEntry>(
      `SELECT at, kind, position, detail FROM flow_run_history WHERE workspace_id = $2 AND run_id = $1 ORDER BY at, id`,
      [run.id, actor.workspaceId],
    ),
  ]);
  return {
    ...publicRun(run, steps.get(`${run.flow_id}:${run.version}`) ?? null),
    history: history.map(publicEntry).filter((e): e is RunHistoryEntry => e !== null),
  };
}

export type RunFilter = { status?: RunStatus; contact_id?: string; key?: string };

/** GET /flows/{flow_id}/runs: the flow's runs of the key's mode, in D10's order and pages, filtered. */
export async function listFlowRuns(database: Database, actor: Actor, flowId: string, filter: RunFilter, query: PageQuery, url: string) {
  const [flow] = await database.query<{ id: string }>(`SELECT id FROM flows WHERE id = $1 AND workspace_id = $2`, [
    flowId,
    actor.workspaceId,
  ]);
  if (!flow) throw notFound("flow", "flow_id");
  const { items, link } = await listPage(
    query,
    url,
    async (id) => {
      const [cursor] = await database.query<Cursor>(
        `SELECT id, created_at AS "createdAt" FROM flow_runs WHERE workspace_id = $4 AND id = $1 AND flow_id = $2 AND mode = $3::"KeyMode"`,
        [id, flowId, actor.mode, actor.workspaceId],
      );
      return cursor ?? null;
    },
    (_, take, cursor) => {
      const values: unknown[] = [flowId, actor.mode, actor.workspaceId];
      const param = (value: unknown) => `$${values.push(value)}`;
      const where = [`r.workspace_id = $3`, `r.flow_id = $1`, `r.mode = $2::"KeyMode"`];
      if (filter.status) where.push(`r.status = ${param(filter.status)}::"RunStatus"`);
      if (filter.contact_id) where.push(`r.contact_id = ${param(filter.contact_id)}`);
      if (filter.key) where.push(`r.key = ${param(filter.key)}`);
      if (cursor) where.push(`(r.created_at, r.id) > (${param(cursor.createdAt)}, ${param(cursor.id)})`);
      return database.query<RunRecord>(
        `SELECT ${RUN_COLUMNS} FROM flow_runs r WHERE ${where.join(" AND ")} ORDER BY r.created_at, r.id LIMIT ${param(take)}`,
        values,
      );
    },
  );
  const steps = await versionSteps(database, actor.workspaceId, items);
  return { items: items.map((r) => publicRun(r, steps.get(`${r.flow_id}:${r.version}`) ?? null)), link };
}
