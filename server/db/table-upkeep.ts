import { log } from "../lib/log.ts";
import type { Database } from "./client.ts";

// What autovacuum does, for a database that has none: the embedded store (PGlite runs no
// background workers) and a PostgreSQL with `autovacuum` off (and no Citus, whose workers keep
// their own shards). Without it a table is never analyzed, so the planner guesses how many rows a
// workspace has (a few) and reads them all through an index by workspace where it should look up
// a handful of ids; and a table that rows leave (the outbox's jobs) is never vacuumed, so every
// claim steps over the dead rows of every job that ever ran.
//
// Every UPKEEP_EVERY_MS the server that holds the database looks at each table's counters and,
// with autovacuum's own default thresholds, analyzes a table once 50 rows plus 10 % of it
// changed since its last ANALYZE, and vacuums (and analyzes) it once 50 rows plus 20 % of it
// are dead. Largest need first, until UPKEEP_BUDGET_MS has passed: each statement is atomic and
// takes no lock that writers wait on (VACUUM without FULL, ANALYZE), though on the embedded
// store, which runs one statement at a time, requests wait for each.

export const UPKEEP_EVERY_MS = 15_000;
/** One round's time: a table started before it ends is finished, the rest wait for the next round. */
export const UPKEEP_BUDGET_MS = 5_000;

/**
 * Whether this process keeps this database (no autovacuum does): the embedded store by the
 * process that holds it (one reaching it over its socket leaves it to the holder, D53).
 */
export async function needsUpkeep(database: Database): Promise<boolean> {
  if (database.engine === "pglite") return !database.shared;
  const [row] = await database.query<{ autovacuum: string; citus: boolean }>(
    `SELECT current_setting('autovacuum') AS autovacuum, EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus') AS citus`,
  );
  return row!.autovacuum === "off" && !row!.citus;
}

export type Upkeep = { vacuumed: string[]; analyzed: string[] };

// The tables due, most rows to catch up first. `n_dead_tup` and `n_mod_since_analyze` count
// since the last VACUUM or ANALYZE, as autovacuum reads them.
const DUE = `
  SELECT relname AS table, n_dead_tup > 50 + 0.2 * n_live_tup AS vacuum
  FROM pg_stat_user_tables
  WHERE schemaname = 'public' AND (n_dead_tup > 50 + 0.2 * n_live_tup OR n_mod_since_analyze > 50 + 0.1 * n_live_tup)
  ORDER BY greatest(n_dead_tup, n_mod_since_analyze) DESC`;

/** One round of upkeep: the tables vacuumed (and analyzed) and those only analyzed. */
export async function keepTables(database: Database, budgetMs = UPKEEP_BUDGET_MS): Promise<Upkeep> {
  const deadline = Date.now() + budgetMs;
  const done: Upkeep = { vacuumed: [], analyzed: [] };
  for (const { table, vacuum } of await database.query<{ table: string; vacuum: boolean }>(DUE)) {
    if (Date.now() >= deadline) break;
    // The name comes from the catalog; quoted as an identifier all the same.
    const name = `"${table.replaceAll('"', '""')}"`;
    await database.query(vacuum ? `VACUUM (ANALYZE) ${name}` : `ANALYZE ${name}`);
    (vacuum ? done.vacuumed : done.analyzed).push(table);
  }
  return done;
}

/**
 * Starts the upkeep rounds of `database` if it needs them (`needsUpkeep`): the first after
 * UPKEEP_EVERY_MS, then one every UPKEEP_EVERY_MS after the last ended. Resolves to a stop that
 * waits for a round under way.
 */
export async function startTableUpkeep(database: Database): Promise<() => Promise<void>> {
  if (!(await needsUpkeep(database))) return async () => {};
  let stopped = false;
  let round: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout;
  const schedule = () => {
    timer = setTimeout(() => {
      round = keepTables(database)
        .then((done) => {
          if (done.vacuumed.length || done.analyzed.length) log().debug(done, "tables kept");
        })
        .catch((err: Error) => log().warn({ err: { type: err.name, message: err.message } }, "table upkeep failed; it runs again later"))
        .finally(() => !stopped && schedule());
    }, UPKEEP_EVERY_MS);
    timer.unref();
  };
  schedule();
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await round;
  };
}
