import { inject } from "vitest";
import type { FixtureWorkspace } from "../support/fixtures.ts";
import { fixtures } from "../support/client.ts";
import { queryDatabase } from "../support/database.ts";

// Where rows live on the api-citus cluster (D87), read on the coordinator from Citus's catalog.

export const query = <T = Record<string, unknown>>(sql: string, params: unknown[] = []) =>
  queryDatabase(inject("api").env, sql, params) as Promise<T[]>;

/** The workers' ports holding rows of `table` (by the shards its rows' workspaces hash to). */
export const workersWithRows = async (table: string, where = "true") =>
  (
    await query<{ port: number }>(
      `SELECT DISTINCT n.nodeport AS port
       FROM (SELECT DISTINCT workspace_id FROM ${table} WHERE ${where}) r
       JOIN pg_dist_placement pl ON pl.shardid = get_shard_id_for_distribution_column('${table}', r.workspace_id)
       JOIN pg_dist_node n ON n.groupid = pl.groupid
       WHERE n.groupid <> 0 ORDER BY 1`,
    )
  ).map((r) => r.port);

/**
 * One fixture workspace of `names` (each with the keys asked for) on each worker, by the
 * shard its id hashes to: the port of the worker and the workspace. Tests running beside each
 * other pass different names, so that none sees another's channels.
 */
export async function oneWorkspacePerWorker(
  names: readonly string[],
  keys: readonly string[] = ["test"],
): Promise<Map<number, FixtureWorkspace>> {
  const fx = fixtures();
  const candidates = names.map((n) => fx[n]!).filter((w) => w && keys.every((k) => w.keys[k]));
  const placed = await query<{ id: string; port: number }>(
    `SELECT w.id, n.nodeport AS port FROM unnest($1::text[]) WITH ORDINALITY AS w(id, i)
     JOIN pg_dist_placement pl ON pl.shardid = get_shard_id_for_distribution_column('workspaces', w.id)
     JOIN pg_dist_node n ON n.groupid = pl.groupid ORDER BY w.i`,
    [candidates.map((w) => w.id)],
  );
  const byWorker = new Map<number, FixtureWorkspace>();
  for (const p of placed)
    if (!byWorker.has(p.port))
      byWorker.set(
        p.port,
        candidates.find((w) => w.id === p.id)!,
      );
  if (byWorker.size < 2) throw new Error(`the workspaces ${names.join(", ")} all hash to one worker: name more`);
  return byWorker;
}
