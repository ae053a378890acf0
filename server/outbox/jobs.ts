import DataLoader from "dataloader";
import { isConnectionError, type Database, type Sql } from "../db/client.ts";
import { env } from "../lib/env.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { causeColumns } from "../observability/request-context.ts";

// The outbox table's operations. A job is claimed with FOR UPDATE SKIP LOCKED and a lease, so
// any number of workers in any number of processes can run the pipeline; a crashed worker's
// jobs are taken again when their lease expires. A worker only completes or reschedules a job
// while it still holds the lease. `owner` is one claim's token (`claimToken`), not just the
// worker's: a later claim of the same job, even by the same worker, holds a different one.

export type Job = {
  id: string;
  kind: string;
  subject_id: string;
  workspace_id: string;
  channel_id: string | null;
  payload: Record<string, unknown>;
  run_at: Date;
  attempts: number;
  created_at: Date;
  /** The request that caused the job and the traceparent its span continues (D54). */
  request_id: string | null;
  traceparent: string | null;
};

const CLAIM = `
  UPDATE jobs SET lease_until = now() + make_interval(secs => $3::double precision / 1000), lease_owner = $1, attempts = attempts + 1
  WHERE id IN (
    SELECT id FROM jobs
    WHERE run_at <= now() AND (lease_until IS NULL OR lease_until < now())
    ORDER BY run_at
    LIMIT $2
    FOR UPDATE SKIP LOCKED
  )
  RETURNING id, kind, subject_id, workspace_id, channel_id, payload, run_at, attempts, created_at, request_id, traceparent`;

export async function claimJobs(database: Database, owner: string, limit: number, leaseMs: number): Promise<Job[]> {
  return database.query<Job>(CLAIM, [owner, limit, leaseMs]);
}

let claims = 0;
/** A token naming one claim of one worker: `lease_owner` of the jobs that claim took. */
export function claimToken(worker: string): string {
  return `${worker}#${(claims = (claims + 1) % 1e9)}`;
}

// D47's fence: a provider call (or webhook POST) starts only after this statement found the
// job still held by the claim that read it and extended its lease past the call's timeout
// plus one more lease. `lease_owner` is per claim, so a row still naming it proves no other
// claim has happened since: no other worker can be calling for this job, and none can claim
// it again until the call has ended (or the process died). The jobs of one claim fence in
// one statement (batched like their first read).
const FENCE = `
  UPDATE jobs j SET lease_until = greatest(j.lease_until, now() + make_interval(secs => f.ms / 1000))
  FROM unnest($1::text[], $2::text[], $3::double precision[]) AS f(id, owner, ms)
  WHERE j.id = f.id AND j.lease_owner = f.owner
  RETURNING j.id, j.lease_owner`;

const fences = new WeakMap<Database, DataLoader<{ id: string; owner: string; ms: number }, boolean, string>>();

/**
 * Fences one call of `callMs` at most: true when this claim still holds the job, whose lease
 * then covers the call and one more lease (time to record the outcome); false when another
 * claim took it meanwhile, in which case the caller makes no call and records nothing.
 */
export async function fenceJob(database: Database, job: Job, owner: string, callMs: number): Promise<boolean> {
  let loader = fences.get(database);
  if (!loader) {
    loader = new DataLoader(
      async (keys) => {
        const rows = await database.query<{ id: string; lease_owner: string }>(FENCE, [
          keys.map((k) => k.id),
          keys.map((k) => k.owner),
          keys.map((k) => k.ms),
        ]);
        const held = new Set(rows.map((r) => `${r.id} ${r.lease_owner}`));
        return keys.map((k) => held.has(`${k.id} ${k.owner}`));
      },
      { cache: false, maxBatchSize: 200, cacheKeyFn: (k) => `${k.id} ${k.owner}` },
    );
    fences.set(database, loader);
  }
  return loader.load({ id: job.id, owner, ms: callMs + env().pipelineLeaseMs });
}

/**
 * Records the outcome of a call that was made (after `fenceJob`). While the database cannot
 * be reached (a restart) it tries again, for most of the lease the fence left after the call,
 * so the outcome lands once the database is back and the job is not claimed and the call made
 * again (D47). Other errors are thrown at once.
 */
export async function recordOutcome<T>(record: () => Promise<T>): Promise<T> {
  const until = Date.now() + env().pipelineLeaseMs * 0.8;
  for (let wait = 100; ; wait = Math.min(wait * 2, 1_000)) {
    try {
      return await record();
    } catch (err) {
      if (!isConnectionError(err) || Date.now() + wait > until) throw err;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}

/**
 * Renews the leases of jobs a worker holds and has not finished (waiting for a connection, a
 * slot, a busy CPU), so they are not claimed again meanwhile. Never shortens a fenced lease.
 */
export async function renewLeases(database: Database, held: { id: string; owner: string }[], leaseMs: number): Promise<void> {
  if (held.length === 0) return;
  await database.query(
    `UPDATE jobs j SET lease_until = greatest(j.lease_until, now() + make_interval(secs => $3::double precision / 1000))
     FROM unnest($1::text[], $2::text[]) AS h(id, owner) WHERE j.id = h.id AND j.lease_owner = h.owner`,
    [held.map((h) => h.id), held.map((h) => h.owner), leaseMs],
  );
}

/** Deletes a finished job in the transaction that records its effect; false if the lease was lost. */
export async function completeJob(sql: Sql, job: Job, owner: string): Promise<boolean> {
  const deleted = await sql(`DELETE FROM jobs WHERE id = $1 AND lease_owner = $2 RETURNING id`, [job.id, owner]);
  return deleted.length > 0;
}

const RESCHEDULE = `
  UPDATE jobs SET run_at = $3, lease_until = NULL, lease_owner = NULL, attempts = attempts - $4,
    last_error = coalesce($5, last_error), payload = coalesce($6::jsonb, payload)
  WHERE id = $1 AND lease_owner = $2
  RETURNING id`;

/** Puts a job back for later; `countAttempt: false` when it never ran (pacing). False if the lease was lost. */
export async function rescheduleJob(
  sql: Sql,
  job: Job,
  owner: string,
  runAt: Date,
  opts: { error?: string; countAttempt?: boolean; payload?: Record<string, unknown> } = {},
): Promise<boolean> {
  const updated = await sql(RESCHEDULE, [
    job.id,
    owner,
    runAt,
    opts.countAttempt === false ? 1 : 0,
    opts.error ?? null,
    opts.payload ? JSON.stringify(opts.payload) : null,
  ]);
  return updated.length > 0;
}

/** Puts jobs that never ran (pacing, an endpoint's share of slots) back for later, in one statement. */
export async function deferJobs(sql: Sql, jobs: Job[], owner: string, runAt: Date): Promise<void> {
  if (jobs.length === 0) return;
  await sql(
    `UPDATE jobs SET run_at = $3, lease_until = NULL, lease_owner = NULL, attempts = attempts - 1 WHERE id = ANY($1::text[]) AND lease_owner = $2`,
    [jobs.map((j) => j.id), owner, runAt],
  );
}

export type NewJob = {
  kind: string;
  subjectId: string;
  workspaceId: string;
  channelId?: string | null;
  payload?: Record<string, unknown>;
  runAt: Date;
};

export async function enqueueJob(tx: Prisma.TransactionClient, id: string, job: NewJob): Promise<void> {
  await tx.job.create({
    data: {
      id,
      kind: job.kind,
      subjectId: job.subjectId,
      workspaceId: job.workspaceId,
      channelId: job.channelId ?? null,
      payload: (job.payload ?? {}) as Prisma.InputJsonObject,
      runAt: job.runAt,
      ...causeColumns(),
    },
  });
}
