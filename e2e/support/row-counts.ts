import { inject } from "vitest";
import { queryDatabase } from "./database.ts";

// What a request wrote, by table: the rows of every table that belong to a workspace, read
// before and after a request that must write nothing (a flow edit's preview, D70; a dry run
// and reachability, D71). Give such a test a workspace of its own, so no other file's writes
// show up in its counts.
const sql = (text: string, params: unknown[] = []) => queryDatabase(inject("api").env, text, params);

/**
 * The workspace's row counts once the pipeline's work on it has settled: no job of the workspace
 * due within a minute (test mode's simulated delivery reports each schedule the next, and one
 * landing between two readings failed CI), and two equal readings.
 */
export async function settledCounts(workspaceId: string): Promise<Record<string, number>> {
  const dueSoon = async () =>
    (await sql(`SELECT count(*)::int AS n FROM jobs WHERE workspace_id = $1 AND run_at < now() + interval '1 minute'`, [workspaceId]))[0]!
      .n as number;
  let last = "";
  for (const end = Date.now() + 60_000; Date.now() < end;) {
    const next = JSON.stringify(await rowCounts(workspaceId));
    if (next === last && (await dueSoon()) === 0) return JSON.parse(next);
    last = next;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error("the workspace's rows kept changing, or work stayed due, for 60 s");
}

/** The tables whose count differs, with both counts: a failure names what was written. */
export function changedCounts(before: Record<string, number>, after: Record<string, number>): Record<string, [number, number]> {
  const tables = new Set([...Object.keys(before), ...Object.keys(after)]);
  return Object.fromEntries([...tables].filter((t) => before[t] !== after[t]).map((t) => [t, [before[t] ?? 0, after[t] ?? 0]]));
}

/**
 * Rows of every table that belong to the workspace (by workspace, flow, run, message, contact or
 * webhook delivery), by table. Tables with no tie to a workspace are left out: their rows change
 * with every other test file running beside this one. So is `rate_limit_counters`: every API
 * call, a preview's or a dry run's too, counts against the key's rate limit (D24) by design.
 */
export async function rowCounts(workspaceId: string): Promise<Record<string, number>> {
  const columns = await sql(
    `SELECT table_name AS t, array_agg(column_name::text) AS c FROM information_schema.columns
     WHERE table_schema = current_schema() AND table_name NOT LIKE '\\_%' AND table_name <> 'rate_limit_counters' GROUP BY 1 ORDER BY 1`,
  );
  const parts = (columns as { t: string; c: string[] }[]).flatMap(({ t, c }) => {
    const where = c.includes("workspace_id")
      ? `workspace_id = $1`
      : c.includes("flow_id")
        ? `flow_id IN (SELECT id FROM flows WHERE workspace_id = $1)`
        : c.includes("run_id")
          ? `run_id IN (SELECT id FROM flow_runs WHERE workspace_id = $1)`
          : c.includes("message_id")
            ? `message_id IN (SELECT id FROM messages WHERE workspace_id = $1)`
            : c.includes("contact_id")
              ? `contact_id IN (SELECT id FROM contacts WHERE workspace_id = $1)`
              : c.includes("delivery_id")
                ? `delivery_id IN (SELECT id FROM webhook_deliveries WHERE workspace_id = $1)`
                : null;
    return where ? [`SELECT '${t}' AS t, count(*)::int AS n FROM "${t}" WHERE ${where}`] : [];
  });
  const rows = await sql(parts.join(" UNION ALL "), [workspaceId]);
  return Object.fromEntries(rows.map((r) => [r.t as string, r.n as number]));
}
