import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Handle } from "../../server/db/client.ts";
import { deleteOlderThan } from "../../server/pipeline/sweep.ts";
import { query as coordinator } from "./shards.ts";

// D87: the retention sweep's batched delete of old history and events (e2e/cli/retention.test.ts
// on PostgreSQL and PGlite) on the Citus cluster, over workspaces on both workers: a statement
// over every workspace's shards, which Citus refused while it deleted by `ctid`. On the
// project's database (a fresh one is migrated anew on the cluster, a minute): its rows are
// years old, older than any other file's, so the cutoff finds only them.

const DAY = 24 * 60 * 60_000;
const WORKSPACES = ["ws_ret_a", "ws_ret_b", "ws_ret_c", "ws_ret_d", "ws_ret_e", "ws_ret_f"];
const query: Handle = coordinator;

describe("retention sweep on Citus (D87)", () => {
  beforeAll(async () => {
    await query(`INSERT INTO workspaces (id, name) SELECT id, id FROM unnest($1::text[]) id`, [WORKSPACES]);
    for (const ws of WORKSPACES) {
      for (const [suffix, ageDays] of [
        ["old", 1000],
        ["new", 800],
      ] as const) {
        const at = new Date(Date.now() - ageDays * DAY);
        await query(
          `INSERT INTO messages (id, workspace_id, mode, channel, contact_id, "to", status, content, created_at)
           VALUES ($1, $2, 'test', 'whatsapp', 'ct_retention', '+15550100009', 'read', '{}', $3)`,
          [`msg_${ws}_${suffix}`, ws, at],
        );
        await query(
          `INSERT INTO message_history (workspace_id, message_id, at, kind, status)
           SELECT $1, $2, $3::timestamptz + g * interval '1 ms', 'status', 'sent' FROM generate_series(1, 7) g`,
          [ws, `msg_${ws}_${suffix}`, at],
        );
        await query(
          `INSERT INTO events (id, workspace_id, name, mode, data, created_at)
           SELECT $2 || '_' || g, $1, 'mensagem.enviada', 'test', '{}', $3::timestamptz + g * interval '1 ms' FROM generate_series(1, 7) g`,
          [ws, `evt_${ws}_${suffix}`, at],
        );
      }
    }
  });
  afterAll(async () => {
    for (const table of ["message_history", "events", "messages", "workspaces"])
      await query(`DELETE FROM ${table} WHERE ${table === "workspaces" ? "id" : "workspace_id"} = ANY($1)`, [WORKSPACES]);
  });

  it("deletes the old rows of workspaces on both workers in batches, keeping the newer ones", async () => {
    const workers = await query<{ port: number }>(
      `SELECT DISTINCT n.nodeport AS port FROM unnest($1::text[]) w(id)
       JOIN pg_dist_placement pl ON pl.shardid = get_shard_id_for_distribution_column('message_history', w.id)
       JOIN pg_dist_node n ON n.groupid = pl.groupid`,
      [WORKSPACES],
    );
    expect(workers.length).toBe(2);
    const cutoff = new Date(Date.now() - 900 * DAY);
    const old = WORKSPACES.length * 7;
    // Batches of 10 rows until a short one: every old row, each statement over all the shards.
    expect(await deleteOlderThan(query, "message_history", "at", cutoff, 10, Date.now() + 60_000)).toEqual({
      deleted: old,
      statements: Math.floor(old / 10) + 1,
      done: true,
    });
    expect(await deleteOlderThan(query, "events", "created_at", cutoff, 10, Date.now() + 60_000)).toMatchObject({
      deleted: old,
      done: true,
    });
    const [left] = await query<{ old: number; history: number; events: number; workspaces: number }>(
      `SELECT (SELECT count(*)::int FROM message_history WHERE at < $1) + (SELECT count(*)::int FROM events WHERE created_at < $1) AS old,
              (SELECT count(*)::int FROM message_history WHERE workspace_id = ANY($2)) AS history,
              (SELECT count(*)::int FROM events WHERE workspace_id = ANY($2)) AS events,
              (SELECT count(DISTINCT workspace_id)::int FROM message_history WHERE workspace_id = ANY($2)) AS workspaces`,
      [cutoff, WORKSPACES],
    );
    expect(left).toEqual({ old: 0, history: old, events: old, workspaces: WORKSPACES.length });
  });
});
