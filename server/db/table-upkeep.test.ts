import { describe, expect, it } from "vitest";
import { openFreshDatabase, rowsRead } from "../../e2e/support/open-database.ts";
import type { Database } from "./client.ts";
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
    const { database, drop } = await openFreshDatabase(engine, "upkeep", { poolSize: 1 });
    try {
      const autovacuum =
        engine === "pglite" ? "none" : (await database.query<{ a: string }>(`SELECT current_setting('autovacuum') AS a`))[0]!.a;
      expect(await needsUpkeep(database)).toBe(autovacuum !== "on");
      // A process that reaches the embedded store over its socket leaves the upkeep to the holder.
      if (engine === "pglite") expect(await needsUpkeep({ ...database, shared: true })).toBe(false);

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
      const before = await messagesRead(database, ids);
      if (engine === "postgres") expect(before).toBeGreaterThan(19_000);

      const kept = await keepTables(database);
      expect(kept.vacuumed).toContain("jobs");
      expect([...kept.vacuumed, ...kept.analyzed]).toContain("messages");
      const [jobs] = await database.query<{ dead: number }>(
        `SELECT n_dead_tup::int AS dead FROM pg_stat_user_tables WHERE relname = 'jobs'`,
      );
      expect(jobs!.dead).toBe(0);

      // Analyzed: the 66 by their key.
      expect(await messagesRead(database, ids)).toBeLessThanOrEqual(66);
      // Nothing left to do until the tables change again.
      await flushStatistics(database);
      expect(await keepTables(database)).toEqual({ vacuumed: [], analyzed: [] });
    } finally {
      await drop();
    }
  });
});

/** The session's statistics reported now, so that `pg_stat_user_tables` counts its writes (it reports at most once a second). */
async function flushStatistics(database: Database): Promise<void> {
  await database.query(`SELECT pg_stat_force_next_flush()`);
  await database.query(`SELECT 1`);
}

/** Rows of `messages` the lock of `ids` read, by index or sequential scan. */
async function messagesRead(database: Database, ids: string[]): Promise<number> {
  const read = await rowsRead(database, "messages", (tx) => tx(LOCK, [ws, ids]));
  return read.sequential + read.byIndex;
}
