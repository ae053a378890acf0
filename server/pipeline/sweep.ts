import type { Database, Handle } from "../db/client.ts";
import { env } from "../lib/env.ts";
import { WINDOW_MS } from "../ratelimit/sliding-window.ts";
import { rescheduleJob, type Job } from "../outbox/jobs.ts";
import { recheckGuards } from "../channels/reputation.ts";

/** How often the sweep runs; its job (`job_sweep`, created by a migration) reschedules itself. */
export const SWEEP_EVERY_MS = 60 * 60_000;
/** Webhook attempts and settled deliveries are kept this long (D33). */
export const WEBHOOK_LOG_RETENTION_DAYS = 30;
/** One sweep deletes old history and events for at most this long (or half the job's lease). */
export const RETENTION_BUDGET_MS = 10_000;
/** When old rows remain after the budget, the sweep comes back this soon instead of in an hour. */
export const RETENTION_RESUME_MS = 60_000;

const DAY_MS = 24 * 60 * 60_000;

export type Deleted = { deleted: number; statements: number; done: boolean };

/**
 * Deletes the rows of `table` whose `column` is before `cutoff`, at most `batch` rows a
 * statement, each statement its own transaction, so no lock is held for long and the rows
 * another transaction writes meanwhile are never waited on for more than one batch. The old
 * rows are found through the table's BRIN index on that time column, and deleted by their key
 * (D87: Citus refuses `ctid` in a statement over every workspace's shards, the key it routes
 * through the shards that hold them). Stops when none is left
 * (`done`) or when `deadline` (epoch ms) has passed.
 */
export async function deleteOlderThan(
  sql: Handle,
  table: "message_history" | "events",
  column: "at" | "created_at",
  cutoff: Date,
  batch: number,
  deadline: number,
): Promise<Deleted> {
  let deleted = 0;
  let statements = 0;
  for (;;) {
    const [row] = await sql<{ n: number }>(
      `WITH gone AS (
         DELETE FROM ${table} WHERE (workspace_id, id) IN (SELECT workspace_id, id FROM ${table} WHERE ${column} < $1 LIMIT $2) RETURNING 1
       ) SELECT count(*)::int AS n FROM gone`,
      [cutoff, batch],
    );
    const n = row?.n ?? 0;
    deleted += n;
    statements++;
    if (n < batch) return { deleted, statements, done: true };
    if (Date.now() >= deadline) return { deleted, statements, done: false };
  }
}

/**
 * Retention, once an hour across all instances: message history and events older than
 * RETENTION_DAYS (in bounded batches, docs/messages.md), webhook attempts and settled
 * deliveries older than 30 days, rotated-out secrets past their overlap, expired idempotency
 * records and contact events' client ids, and rate-limit and pacing counters no request can read any more;
 * and the reputation guard of every e-mail channel with sends in its window, checked again (D93).
 */
export async function sweep(database: Database, job: Job<"maintenance.sweep">, owner: string): Promise<string> {
  const now = Date.now();
  const { retentionDays, retentionBatchRows, pipelineLeaseMs } = env();
  const cutoff = new Date(now - retentionDays * DAY_MS);
  const deadline = now + Math.min(RETENTION_BUDGET_MS, pipelineLeaseMs / 2);
  const history = await deleteOlderThan(database.query, "message_history", "at", cutoff, retentionBatchRows, deadline);
  const events = history.done
    ? await deleteOlderThan(database.query, "events", "created_at", cutoff, retentionBatchRows, deadline)
    : { deleted: 0, statements: 0, done: false };
  const done = history.done && events.done;
  await recheckGuards(database);
  await database.transaction(async (sql) => {
    const days = `make_interval(days => ${WEBHOOK_LOG_RETENTION_DAYS})`;
    await sql(`DELETE FROM webhook_attempts WHERE at < now() - ${days}`);
    // created_at is never after updated_at: its condition changes nothing but finds the rows by the BRIN index.
    await sql(`DELETE FROM webhook_deliveries WHERE status <> 'pending' AND updated_at < now() - ${days} AND created_at < now() - ${days}`);
    await sql(`DELETE FROM webhook_secrets WHERE expires_at < now()`);
    await sql(`DELETE FROM idempotency_records WHERE expires_at < now()`);
    // D61: a contact event's client id answers a second event for 24 hours.
    await sql(`DELETE FROM contact_event_ids WHERE created_at < now() - interval '24 hours'`);
    await sql(`DELETE FROM rate_limit_counters WHERE window_start < $1`, [now - 2 * WINDOW_MS]);
    await sql(`DELETE FROM channel_pacing WHERE second < $1`, [Math.floor(now / 1000) - 60]);
    const next = done ? now + SWEEP_EVERY_MS : Date.now() + RETENTION_RESUME_MS;
    await rescheduleJob(sql, job, owner, new Date(next), { countAttempt: false });
  });
  return done ? "swept" : "swept_partly";
}
