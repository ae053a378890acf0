import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { describe, expect, it } from "vitest";
import { freshDatabase } from "../../e2e/support/database.ts";
import { pgDatabase, type Database, type Handle } from "./client.ts";
import { pgliteDatabase } from "./pglite-database.ts";
import { keepTables, needsUpkeep } from "./table-upkeep.ts";

// The service's own upkeep where no autovacuum runs (table-upkeep.ts): the embedded store, and
// a PostgreSQL with autovacuum off (this machine's). A table never analyzed leaves the planner
// guessing that a workspace has a few messages: the lock of a report's messages (apply-report.ts)
// then read the workspace's every message to find its 66, and a table of finished jobs is never
// vacuumed. After a round of upkeep the same statement reads its own rows.
const ws = "ws-upkeep";
const LOCK = `SELECT id, status::text AS status FROM messages WHERE workspace_id = $1 AND id = ANY($2::text[]) ORDER BY id FOR UPDATE`;

describe.each(["postgres", "pglite"] as const)("table upkeep on %s", (engine) => {
  it("analyzes a table that grew and vacuums one that rows left, so a workspace's look-up by ids reads its own rows", async () => {
    const fresh = await freshDatabase(engine, "upkeep", { migrated: true });
    const database: Database =
      engine === "pglite"
        ? pgliteDatabase(await PGlite.create(join(fresh.env.DATA_DIR!, "pglite")))
        : await pgDatabase({ connectionString: fresh.env.DATABASE_URL }, 1, true);
    try {
      const autovacuum =
        engine === "pglite" ? "none" : (await database.query<{ a: string }>(`SELECT current_setting('autovacuum') AS a`))[0]!.a;
      expect(await needsUpkeep(database)).toBe(autovacuum !== "on");

      await database.query(`INSERT INTO workspaces (id, name) VALUES ($1, 'Upkeep')`, [ws]);
      await database.query(`INSERT INTO contacts (id, workspace_id) VALUES ('ct_u', $1)`, [ws]);
      await database.query(
        `INSERT INTO messages (id, workspace_id, mode, channel, contact_id, "to", content)
         SELECT 'msg_' || lpad(i::text, 6, '0'), $1, 'test', 'whatsapp', 'ct_u', '+15550000000', '{}' FROM generate_series(1, 20000) AS i`,
        [ws],
      );
      await database.query(
        `INSERT INTO jobs (id, kind, subject_id, workspace_id, run_at) SELECT 'job_u' || i, 'flow.step', 'fr_u', $1, now() FROM generate_series(1, 5000) AS i`,
        [ws],
      );
      await database.query(`DELETE FROM jobs WHERE workspace_id = $1`, [ws]);
      await flushStatistics(database);
      const ids = Array.from({ length: 66 }, (_, i) => `msg_${String(19_900 + i).padStart(6, "0")}`);

      // Never analyzed: on PostgreSQL the workspace's every message is read to find 66 (the
      // embedded store's planner happens to find them by key here).
      const before = await rowsRead(database, (tx) => tx(LOCK, [ws, ids]));
      if (engine === "postgres") expect(before).toBeGreaterThan(19_000);

      const kept = await keepTables(database);
      expect(kept.vacuumed).toContain("jobs");
      expect([...kept.vacuumed, ...kept.analyzed]).toContain("messages");
      const [jobs] = await database.query<{ dead: number }>(
        `SELECT n_dead_tup::int AS dead FROM pg_stat_user_tables WHERE relname = 'jobs'`,
      );
      expect(jobs!.dead).toBe(0);

      // Analyzed: the 66 by their key.
      expect(await rowsRead(database, (tx) => tx(LOCK, [ws, ids]))).toBeLessThanOrEqual(66);
      // Nothing left to do until the tables change again.
      await flushStatistics(database);
      expect(await keepTables(database)).toEqual({ vacuumed: [], analyzed: [] });
    } finally {
      await database.close();
      await fresh.drop();
    }
  });
});

/** The session's statistics reported now, so that `pg_stat_user_tables` counts its writes (it reports at most once a second). */
async function flushStatistics(database: Database): Promise<void> {
  await database.query(`SELECT pg_stat_force_next_flush()`);
  await database.query(`SELECT 1`);
}

/**
 * Rows of `messages` that `run` read by index or sequential scan, in one transaction. Counted
 * before and after: the session's counters also hold its earlier transactions' not yet reported.
 */
async function rowsRead(database: Database, run: (tx: Handle) => Promise<unknown>): Promise<number> {
  return database.transaction(async (tx) => {
    const read = async () =>
      (
        await tx<{ n: number }>(
          `SELECT (coalesce(idx_tup_fetch, 0) + seq_tup_read)::int AS n FROM pg_stat_xact_user_tables WHERE relname = 'messages'`,
        )
      )[0]!.n;
    const before = await read();
    await run(tx);
    return (await read()) - before;
  });
}
