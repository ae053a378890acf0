import type { Handle } from "../db/client.ts";

// D69: a flow's statistics are counters (`flow_step_stats`) written by the transaction that
// changes what they count, so reading them reads a few rows per step whatever the number of
// runs (`flow-stats.ts`). No trigger keeps them (D87: none sits on a distributed table): each
// writer of runs, of their history and of their messages' statuses calls the one function of
// its statistic here, in its own transaction:
// - a run's contribution (`runCounters`): its status (`runs:<status>`, flow-wide), its
//   conversion, and its place (the step it waits in, else its position) as `waiting` while
//   active or as `stopped` / `failed` once it left; a writer takes away what the run counted
//   as it was and adds what it counts as it is (`FlowCounts.run`);
// - a history entry's (`historyCounters`): `reached` for a step run, skipped or waited in (or a
//   wait_for that ended at once, or a wait a move carried over, D70), `skipped:<reason>`,
//   `path:<index>` for a branch (then 0, else 1), a wait_for (on_event 0, on_timeout 1) or a
//   split; a send's entry also names its message (`flow_step_messages`), counted as
//   `message:<status>` at that step;
// - a message's status move (`countMessageMoves`): `message:<status>` moved from the old status
//   to the new one, for the messages a step sent.
// Counters are added into one of 8 shards per key (the connection's), so concurrent writers
// rarely wait on one row; the reader sums the shards.

/** A run as its statistics count it: what `RUN_STATE` reads. */
export type RunState = {
  workspace_id: string;
  flow_id: string;
  mode: string;
  version: number;
  status: string;
  converted: boolean;
  /** The step the run waits in (or failed at), else its position. */
  place: unknown;
};

/** The columns of `RunState`, read from the runs table under the alias `r` (a SELECT list or a RETURNING; the enums uncast, read as text by the drivers: D87, Citus refuses a cast, a stable function, in a RETURNING). */
export const runState = (r: string) =>
  `${r}.workspace_id, ${r}.flow_id, ${r}.mode, ${r}.version, ${r}.status, ${r}.converted_at IS NOT NULL AS converted,
   coalesce(${r}.waiting_at, ${r}.position) AS place`;

/** One counter's change. `version` 0 and `path` "" are the flow-wide counters. */
export type Counter = { workspace_id: string; flow_id: string; mode: string; version: number; path: string; metric: string; n: number };

/** A position as the statistics name its step: `steps.2.then.0`. */
export const statPath = (position: unknown[]) => `steps.${position.join(".")}`;

/** What a run counts as it is, each counter `n` (1 to add it, -1 to take it away). */
export function runCounters(run: RunState, n: number): Counter[] {
  const { workspace_id, flow_id, mode } = run;
  const counters: Counter[] = [{ workspace_id, flow_id, mode, version: 0, path: "", metric: `runs:${run.status}`, n }];
  if (run.converted) counters.push({ workspace_id, flow_id, mode, version: 0, path: "", metric: "conversions", n });
  if (["active", "stopped", "failed"].includes(run.status) && Array.isArray(run.place)) {
    const metric = run.status === "active" ? "waiting" : run.status;
    counters.push({ workspace_id, flow_id, mode, version: run.version, path: statPath(run.place), metric, n });
  }
  return counters;
}

/** A history entry as written: its kind, its step's position and its detail. */
export type Entry = { kind: string; position: unknown; detail: Record<string, unknown> | null };

/** The run an entry belongs to, as the statement that writes the entry leaves it (its version). */
export type EntryRun = { workspace_id: string; flow_id: string; mode: string; version: number };

const text = (value: unknown) => (value === undefined || value === null ? null : String(value));

/** What a history entry counts (each once). */
export function historyCounters(entry: Entry, run: EntryRun): Counter[] {
  const { kind } = entry;
  const detail = entry.detail ?? {};
  const metrics: string[] = [];
  const at = (position: unknown, metric: string): Counter => ({
    workspace_id: run.workspace_id,
    flow_id: run.flow_id,
    mode: run.mode,
    version: run.version,
    path: statPath(position as unknown[]),
    metric,
    n: 1,
  });
  if (kind === "moved") return Array.isArray(detail.reached) ? [at(detail.reached, "reached")] : [];
  if (!Array.isArray(entry.position)) return [];
  if (
    ["step", "skipped", "waiting"].includes(kind) ||
    (kind === "woke" && text(detail.at_once) === "true") ||
    (kind === "path" && detail.type === "split")
  ) {
    metrics.push("reached");
  }
  if (kind === "skipped") metrics.push(`skipped:${text(detail.skip) ?? "other"}`);
  if (kind === "step" && detail.type === "branch") metrics.push(`path:${detail.took === "then" ? "0" : "1"}`);
  if (kind === "path") {
    const path = text(detail.path);
    metrics.push(`path:${path === "on_event" ? "0" : path === "on_timeout" ? "1" : path}`);
  }
  return metrics.map((m) => at(entry.position, m));
}

/** The message a send step's entry names, with the step it counts at; null for any other entry. */
export type StepMessage = { workspace_id: string; message_id: string; flow_id: string; mode: string; version: number; path: string };

function stepMessage(entry: Entry, run: EntryRun): StepMessage | null {
  const detail = entry.detail ?? {};
  if (entry.kind !== "step" || detail.type !== "send" || typeof detail.message_id !== "string" || !Array.isArray(entry.position)) {
    return null;
  }
  return {
    workspace_id: run.workspace_id,
    message_id: detail.message_id,
    flow_id: run.flow_id,
    mode: run.mode,
    version: run.version,
    path: statPath(entry.position),
  };
}

/**
 * The statement part that adds the counters of `from` (a table expression with the columns of
 * `Counter`) to the shards of this connection, summed per key and in key order (two writers
 * never wait on each other in a circle), for flows that still exist. `workspace`: the parameter
 * naming the one workspace of them all, when `from` is a table function's rows (D87: Citus routes
 * the flows' look-up only so).
 */
export function addCounters(from: string, workspace = "x.workspace_id"): string {
  return `INSERT INTO flow_step_stats AS s (workspace_id, flow_id, mode, version, path, metric, shard, n)
    SELECT x.workspace_id, x.flow_id, x.mode::"KeyMode", x.version, x.path, x.metric, pg_backend_pid() % 8, sum(x.n)
    FROM ${from} x
    WHERE EXISTS (SELECT 1 FROM flows f WHERE f.workspace_id = ${workspace} AND f.id = x.flow_id)
    GROUP BY 1, 2, 3, 4, 5, 6 HAVING sum(x.n) <> 0
    ORDER BY 1, 2, 3, 4, 5, 6
    ON CONFLICT (workspace_id, flow_id, mode, version, path, metric, shard) DO UPDATE SET n = s.n + EXCLUDED.n`;
}

/**
 * The statement part (a CTE's body) that adds the counters of runs the same statement writes,
 * counted ahead of the write (`runCounters`, `historyCounters`) as each run will be: `param` is
 * a JSON array of `Counter`s, each with the `run_id` it counts for, and only those of runs
 * `written` (a subquery of ids) count, so a run the statement leaves out counts nothing.
 * `workspace`: the parameter naming the one workspace of them all (D87).
 */
export function addCountersOfRuns(param: string, written: string, workspace: string): string {
  return addCounters(
    `(
    SELECT c.workspace_id, c.flow_id, c.mode, c.version, c.path, c.metric, c.n
    FROM jsonb_to_recordset(${param}::jsonb) AS c(run_id text, workspace_id text, flow_id text, mode text, version int, path text, metric text, n bigint)
    WHERE c.run_id IN (${written})
  )`,
    workspace,
  );
}

/**
 * The statement part (a CTE's body) that moves the counts of messages a step sent from their
 * old status to their new one. `moves` is a table expression with the columns `id` (the
 * message), `from_status` and `to_status`, one row per message whose status the statement
 * changed; messages no step sent count nothing.
 */
export function countMessageMoves(moves: string): string {
  return addCounters(`(
    SELECT f.workspace_id, f.flow_id, f.mode::text AS mode, f.version, f.path, 'message:' || v.to_status AS metric, 1 AS n
    FROM ${moves} v JOIN flow_step_messages f ON f.workspace_id = v.workspace_id AND f.message_id = v.id WHERE v.from_status <> v.to_status
    UNION ALL
    SELECT f.workspace_id, f.flow_id, f.mode::text, f.version, f.path, 'message:' || v.from_status, -1
    FROM ${moves} v JOIN flow_step_messages f ON f.workspace_id = v.workspace_id AND f.message_id = v.id WHERE v.from_status <> v.to_status
  )`);
}

/**
 * The CTEs (`step_messages`, `step_counts`) that write the counters of runs and entries
 * (`counters`, a JSON parameter of `Counter`s), and the messages send steps sent (`messages`,
 * of `StepMessage`s), of the workspace `workspace` (D87): each message is named for its step,
 * and counted there under its status now (the message was written earlier in the transaction).
 * A part of the run engine's statement that writes the runs too (`advance-run.ts`).
 */
export function countsPart(counters: string, messages: string, workspace: string): string {
  return `step_messages AS (
    INSERT INTO flow_step_messages (workspace_id, message_id, flow_id, mode, version, path)
    SELECT x.workspace_id, x.message_id, x.flow_id, x.mode::"KeyMode", x.version, x.path
    FROM jsonb_to_recordset(${messages}::jsonb) AS x(workspace_id text, message_id text, flow_id text, mode text, version int, path text)
    ON CONFLICT (workspace_id, message_id) DO NOTHING
    RETURNING workspace_id, message_id, flow_id, mode, version, path
  ), step_counts AS (
  ${addCounters(
    `(
    SELECT c.workspace_id, c.flow_id, c.mode, c.version, c.path, c.metric, c.n
    FROM jsonb_to_recordset(${counters}::jsonb) AS c(workspace_id text, flow_id text, mode text, version int, path text, metric text, n bigint)
    UNION ALL
    SELECT m.workspace_id, m.flow_id, m.mode::text, m.version, m.path, 'message:' || g.status::text, 1
    FROM step_messages m JOIN messages g ON g.workspace_id = ${workspace} AND g.id = m.message_id
  )`,
    workspace,
  )}
  )`;
}

const WRITE = `WITH ${countsPart("$1", "$2", "$3")} SELECT 1`;

/**
 * What one transaction's writes of runs and history count, gathered while it writes them and
 * written by `write` in the same transaction (one statement, none when nothing counts).
 */
export class FlowCounts {
  private readonly counters: Counter[] = [];
  private readonly messages: StepMessage[] = [];

  /** A run written: what it counted before (null when new) is taken away, what it counts now (null when deleted) added. */
  run(before: RunState | null, after: RunState | null): this {
    if (before) this.counters.push(...runCounters(before, -1));
    if (after) this.counters.push(...runCounters(after, 1));
    return this;
  }

  /** A history entry written for `run`. */
  entry(entry: Entry, run: EntryRun): this {
    this.counters.push(...historyCounters(entry, run));
    const message = stepMessage(entry, run);
    if (message) this.messages.push(message);
    return this;
  }

  /** The workspaces with something to count, in order. */
  workspaces(): string[] {
    return [...new Set([...this.counters, ...this.messages].map((c) => c.workspace_id))].sort();
  }

  /** The parameters of `countsPart` for the workspace `ws`: its counters and its messages, as JSON. */
  params(ws: string): [string, string] {
    const of = <T extends { workspace_id: string }>(rows: T[]) => JSON.stringify(rows.filter((r) => r.workspace_id === ws));
    return [of(this.counters), of(this.messages)];
  }

  async write(sql: Handle): Promise<void> {
    // One statement per workspace, `$3` (D87).
    for (const ws of this.workspaces()) await sql(WRITE, [...this.params(ws), ws]);
  }
}
