import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pgDatabase, type Database, type Handle } from "../../server/db/client.ts";
import { pgliteDatabase } from "../../server/db/pglite-database.ts";
import { freshDatabase, type Engine } from "./database.ts";

/**
 * A migrated fresh database opened in this process as the server opens it (a `Database`: a
 * pool of `poolSize` on PostgreSQL, 2 unless said; the store itself on PGlite), for tests of
 * services; `drop` closes and removes it. A pool of 1 runs every statement in one session, as
 * a test of that session's plans needs.
 */
export async function openFreshDatabase(
  engine: Engine,
  label: string,
  { poolSize = 2 } = {},
): Promise<{ database: Database; drop: () => Promise<void> }> {
  const fresh = await freshDatabase(engine, label, { migrated: true });
  const database =
    engine === "pglite"
      ? pgliteDatabase(await PGlite.create(join(fresh.env.DATA_DIR!, "pglite")))
      : await pgDatabase({ connectionString: fresh.env.DATABASE_URL }, poolSize, true);
  return {
    database,
    drop: async () => {
      await database.close();
      await fresh.drop();
    },
  };
}

/**
 * The rows of `table` that `run` read in one transaction, by sequential scans and through
 * indexes, from the session's own counters (`pg_stat_xact_user_tables`). Counted before and
 * after: those counters also hold the session's earlier transactions that it has not reported
 * yet (PostgreSQL 15 reports at most once a second).
 */
export async function rowsRead(
  database: Database,
  table: string,
  run: (tx: Handle) => Promise<unknown>,
): Promise<{ sequential: number; byIndex: number }> {
  return database.transaction(async (tx) => {
    const read = async () =>
      (
        await tx<{ sequential: number; by_index: number }>(
          `SELECT seq_tup_read::int AS sequential, coalesce(idx_tup_fetch, 0)::int AS by_index FROM pg_stat_xact_user_tables WHERE relname = $1`,
          [table],
        )
      )[0]!;
    const before = await read();
    await run(tx);
    const after = await read();
    return { sequential: after.sequential - before.sequential, byIndex: after.by_index - before.by_index };
  });
}
