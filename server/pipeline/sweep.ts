import type { Database } from "../db/client.ts";
import { WINDOW_MS } from "../ratelimit/sliding-window.ts";
import { rescheduleJob, type Job } from "./jobs.ts";

/** How often the sweep runs; its job (`job_sweep`, created by a migration) reschedules itself. */
export const SWEEP_EVERY_MS = 60 * 60_000;
/** Webhook attempts and settled deliveries are kept this long (D33). */
export const WEBHOOK_LOG_RETENTION_DAYS = 30;

/**
 * Retention, once an hour across all instances: webhook attempts and settled deliveries older
 * than 30 days, rotated-out secrets past their overlap, expired idempotency records, and
 * rate-limit and pacing counters no request can read any more.
 */
export async function sweep(database: Database, job: Job, owner: string): Promise<string> {
  const now = Date.now();
  await database.transaction(async (sql) => {
    const days = `make_interval(days => ${WEBHOOK_LOG_RETENTION_DAYS})`;
    await sql(`DELETE FROM webhook_attempts WHERE at < now() - ${days}`);
    await sql(`DELETE FROM webhook_deliveries WHERE status <> 'pending' AND updated_at < now() - ${days}`);
    await sql(`DELETE FROM webhook_secrets WHERE expires_at < now()`);
    await sql(`DELETE FROM idempotency_records WHERE expires_at < now()`);
    await sql(`DELETE FROM rate_limit_counters WHERE window_start < $1`, [now - 2 * WINDOW_MS]);
    await sql(`DELETE FROM channel_pacing WHERE second < $1`, [Math.floor(now / 1000) - 60]);
    await rescheduleJob(sql, job, owner, new Date(now + SWEEP_EVERY_MS), { countAttempt: false });
  });
  return "swept";
}
