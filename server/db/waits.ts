/**
 * How long work waits for the database, the same on every engine and for both ways of running
 * a transaction (`Database.transaction`, Prisma's interactive `$transaction`).
 *
 * A connection (a new one, a free one of the pool, or on the embedded store its one session,
 * which runs one transaction at a time) is waited for at most 10 s; past that the request fails
 * with `503`. Prisma's own defaults were 2 s to start a transaction and 5 s to run it: on a
 * busy embedded store a contact update or a complaint mailed to the bounce listener failed
 * after 2 s in the queue behind the pipeline's transactions, where a raw transaction waited.
 */
export const CONNECT_TIMEOUT_MS = 10_000;

/** A transaction still open after this long is rolled back: statements are bounded, so only a fault gets here. */
export const TRANSACTION_TIMEOUT_MS = 30_000;

/** Prisma's `transactionOptions`: the waits above. */
export const PRISMA_TRANSACTIONS = { maxWait: CONNECT_TIMEOUT_MS, timeout: TRANSACTION_TIMEOUT_MS } as const;

/**
 * How often a session's cached plans are made again (`DISCARD PLANS`), at the first use of the
 * session after this long. PostgreSQL keeps a plan a session made (its named statements, and
 * the look-up each foreign key checks a new row with) until the table's statistics change,
 * which only ANALYZE does: autovacuum's, or on the embedded store, which has no autovacuum,
 * never. A plan made while a table was empty may read it through the smallest index by its
 * workspace alone, and went on doing so as the table grew: with autovacuum off, each history
 * entry of a run read every run of the workspace to check its run (enrollments at 607/s; 1,106/s
 * with plans made again).
 */
export const REPLAN_MS = 10_000;
