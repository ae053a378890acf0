import type { Database, Sql } from "../db/client.ts";
import type { Prisma } from "../generated/prisma/client.ts";

// The outbox table's operations. A job is claimed with FOR UPDATE SKIP LOCKED and a lease, so
// any number of workers in any number of processes can run the pipeline; a crashed worker's
// jobs are taken again when their lease expires. A worker only completes or reschedules a job
// while it still holds the lease.

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
  RETURNING id, kind, subject_id, workspace_id, channel_id, payload, run_at, attempts, created_at`;

export async function claimJobs(database: Database, owner: string, limit: number, leaseMs: number): Promise<Job[]> {
  return database.query<Job>(CLAIM, [owner, limit, leaseMs]);
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
    },
  });
}
