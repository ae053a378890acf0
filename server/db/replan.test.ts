import { afterEach, describe, expect, it, vi } from "vitest";
import { openFreshDatabase, rowsRead } from "../../e2e/support/open-database.ts";
import type { Database } from "./client.ts";
import { REPLAN_MS } from "./waits.ts";

// A session keeps the plan of the look-up each foreign key checks a new row with until the
// table's statistics change. Made while the table was small, that plan reads the table whole,
// and went on doing so as the table grew where no ANALYZE runs (autovacuum off, or the
// embedded store, which has none): enrollments slowed as runs accumulated (issue 52). A
// session's plans are made again every REPLAN_MS (server/db/waits.ts), so the check follows
// the table's growth. Counted in the session's own statistics: rows of `flow_runs` read while
// history entries are written for runs. Without the plans made again, both engines read
// 19,978 runs per entry after the clock moved on.
afterEach(() => {
  vi.useRealTimers();
});

describe.each(["postgres", "pglite"] as const)("a session's plans on %s", (engine) => {
  it("are made again after REPLAN_MS, so a foreign key's check reads the index of a table that grew since", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    // One connection on PostgreSQL, so that every statement runs in the session that planned.
    const { database, drop } = await openFreshDatabase(engine, "replan", { poolSize: 1 });
    try {
      await database.query(`INSERT INTO workspaces (id, name) VALUES ('ws-r', 'R')`);
      await database.query(`INSERT INTO contacts (id, workspace_id) VALUES ('ct_r', 'ws-r')`);
      await database.query(`INSERT INTO flows (id, workspace_id, name) VALUES ('fl_r', 'ws-r', 'R')`);
      // Enough checks for the session to keep one plan for them, made while `flow_runs` is empty
      // but for the run each statement writes with its first history entry (as an enrollment does).
      for (let i = 0; i < 8; i++)
        await database.query(`${RUN} INSERT INTO flow_run_history (workspace_id, run_id, kind) SELECT 'ws-r', id, 'enrolled' FROM r`, [
          `fr_w${i}`,
        ]);
      await database.query(
        `INSERT INTO flow_runs (id, workspace_id, flow_id, version, contact_id, mode) SELECT 'fr_' || i, 'ws-r', 'fl_r', 1, 'ct_r', 'test' FROM generate_series(1, 20000) AS i`,
      );
      const ids = (from: number) => Array.from({ length: 20 }, (_, i) => from + i);

      // Within REPLAN_MS: the plan made on an empty table reads the workspace's runs in an index's
      // order until it meets the one checked (the newest runs: all of them).
      expect(await readPerEntry(database, ids(19_981))).toBeGreaterThan(19_000);

      vi.setSystemTime(Date.now() + REPLAN_MS);
      // Made again: each check reads its run alone.
      expect(await readPerEntry(database, ids(19_961))).toBe(1);
    } finally {
      await drop();
    }
  });
});

const RUN = `WITH r AS (INSERT INTO flow_runs (id, workspace_id, flow_id, version, contact_id, mode) VALUES ($1, 'ws-r', 'fl_r', 1, 'ct_r', 'test') RETURNING id)`;

/** Writes a history entry of each run `fr_<n>`, one statement each, in one transaction; the rows of `flow_runs` its checks read through an index, per entry. */
async function readPerEntry(database: Database, runs: number[]): Promise<number> {
  const { byIndex } = await rowsRead(database, "flow_runs", async (tx) => {
    for (const n of runs) await tx(`INSERT INTO flow_run_history (workspace_id, run_id, kind) VALUES ('ws-r', $1, 'step')`, [`fr_${n}`]);
  });
  return byIndex / runs.length;
}
