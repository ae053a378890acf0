import DataLoader from "dataloader";
import { isConnectionError, isRolledBackByConflict, type Database, type Handle } from "../db/client.ts";
import { env } from "../lib/env.ts";
import { newId, newIdSql } from "../lib/ids.ts";
import { causeColumns, type Cause } from "../observability/request-context.ts";
import { parsePayload, type JobKind, type JobPayload } from "./job-kinds.ts";
import type { Columns } from "../db/rows.ts";
import { JOBS_CHANNEL } from "./wake.ts";
import { byWorkspace } from "../lib/per-workspace.ts";

// The outbox table's operations. A job is claimed with FOR UPDATE SKIP LOCKED and a lease, so
// any number of workers in any number of processes can run the pipeline; a crashed worker's
// jobs are taken again when their lease expires. A worker only completes or reschedules a job
// while it still holds the lease. `owner` is one claim's token (`claimToken`), not just the
// worker's: a later claim of the same job, even by the same worker, holds a different one.

type JobColumns = {
  id: string;
  subject_id: string;
  workspace_id: string;
  channel_id: string | null;
  run_at: Date;
  attempts: number;
  created_at: Date;
  /** The request that caused the job and the traceparent its span continues (D54). */
  request_id: string | null;
  traceparent: string | null;
};

/**
 * What a claim's lease covers: a call of up to `callMs` that starts within `withinMs` of `at`
 * (this process's monotonic clock, read before the claim was sent) ends with one whole lease
 * left to record its outcome, so it needs no fence (`fenceJob`).
 */
export type ClaimCover = { at: number; callMs: number; withinMs: number };

/**
 * A claimed job as stored, before its payload is parsed (`readJob`), with what its claim's
 * lease covers; `subject`, the row its handler reads first, when the job was handed over by
 * the process that wrote it (`Handoff`).
 */
export type StoredJob = JobColumns & { kind: string; payload: unknown; cover?: ClaimCover; subject?: unknown };

/** A claimed job whose payload its kind's schema parsed; `Job` alone is any kind, told apart by `kind`. */
export type Job<K extends JobKind = JobKind> = K extends JobKind
  ? JobColumns & { kind: K; payload: JobPayload<K>; cover?: ClaimCover; subject?: unknown }
  : never;

/** The stored job with its payload parsed; throws `JobPayloadError` for an unknown kind or a payload its schema refuses. */
export function readJob(stored: StoredJob): Job {
  return { ...stored, payload: parsePayload(stored.kind, stored.payload) } as Job;
}

/**
 * Jobs one worker runs at once. Slots wait on providers, endpoints and the database, not on
 * the CPU: a job's life is mostly waiting, so the slots limit how fast a worker drains, up to
 * the point where more no longer helped (the measurements: docs/architecture.md, "Database").
 */
export const WORKER_SLOTS = 600;

// A job of a kind that calls out (`calls`: the kind's usual call, in ms) is leased for that
// call and half a lease more on top of the lease: a call it starts within half a lease of the
// claim is covered with a whole lease left after it, as the fence would leave it. D87: a claim
// takes jobs of one workspace (`$7`), so that Citus routes it to that workspace's shard.
const CLAIM = `
  UPDATE jobs SET lease_owner = $1, attempts = attempts + 1,
    lease_until = now() + make_interval(secs => ($3::double precision + coalesce(($4::jsonb ->> kind)::double precision, 0)) / 1000)
  WHERE workspace_id = $7 AND id IN (
    SELECT id FROM jobs
    WHERE workspace_id = $7 AND run_at <= now() AND (lease_until IS NULL OR lease_until < now())
      AND NOT (kind = 'webhook.deliver' AND payload ->> 'endpoint_id' = ANY($5::text[]))
      AND NOT (kind = 'message.dispatch' AND channel_id = ANY($6::text[]))
    ORDER BY run_at
    LIMIT $2
    FOR UPDATE SKIP LOCKED
  )
  RETURNING id, kind, subject_id, workspace_id, channel_id, payload, run_at, attempts, created_at, request_id, traceparent`;

// The workspaces with due work that no claim holds, read without a lock (D87: a locking read
// names one workspace): one probe of the index on (workspace_id, run_at) each; and the
// service's own jobs (the retention sweep), kept under the workspace id ''.
const DUE = `j.run_at <= now() AND (j.lease_until IS NULL OR j.lease_until < now())`;
const DUE_WORKSPACES = `
  SELECT w.id FROM workspaces w WHERE EXISTS (SELECT 1 FROM jobs j WHERE j.workspace_id = w.id AND ${DUE})
  UNION ALL
  SELECT '' WHERE EXISTS (SELECT 1 FROM jobs j WHERE j.workspace_id = '' AND ${DUE})
  ORDER BY 1`;

/**
 * Jobs a claim leaves where they are: the deliveries to `endpoints` and the sends through
 * `channels` (each with its slots in the worker taken and its queue there full: `keyedSlots`),
 * so they wait unclaimed, untouched, instead of being claimed and put back again and again.
 */
export type ClaimSkip = { endpoints: string[]; channels: string[] };

/** The workspace this process's last claim reached first in its list: the next claim starts after it (round-robin). */
let reached = "";

/**
 * Claims up to `limit` due jobs for `leaseMs`, but none that `skip` names; a job of a kind in
 * `calls` is leased longer so that the claim covers its usual call (`ClaimCover`) and the
 * call needs no fence of its own.
 *
 * D49, D87: the workspaces with due work are read first, without a lock; then each gets an
 * equal share of the slots, claimed within it (`FOR UPDATE SKIP LOCKED` on that workspace's
 * jobs, the workspaces' statements at once), so a workspace with a large backlog never holds
 * the others' work behind it. Slots a workspace leaves unused go round again to those that
 * filled their share. With more workspaces than slots, each gets one, and the next claim
 * starts after the last one served (round-robin).
 */
export async function claimJobs(
  database: Database,
  owner: string,
  limit: number,
  leaseMs: number,
  calls: Partial<Record<JobKind, number>> = {},
  skip: ClaimSkip | null = null,
): Promise<StoredJob[]> {
  if (limit <= 0) return [];
  const due = (await database.query<Columns<"workspaces", "id">>(DUE_WORKSPACES)).map((w) => w.id);
  if (due.length === 0) return [];
  const start = Math.max(
    0,
    due.findIndex((id) => id > reached),
  );
  let queue = [...due.slice(start), ...due.slice(0, start)];
  const extra = JSON.stringify(
    Object.fromEntries(Object.entries(calls).map(([kind, ms]) => [kind, coveringLeaseMs(leaseMs, ms) - leaseMs])),
  );
  const claimIn = async (workspaceId: string, share: number) => {
    const at = performance.now();
    const jobs = await database.query<StoredJob>(CLAIM, [
      owner,
      share,
      leaseMs,
      extra,
      skip?.endpoints ?? [],
      skip?.channels ?? [],
      workspaceId,
    ]);
    for (const job of jobs) {
      const callMs = calls[job.kind as JobKind];
      if (callMs !== undefined) job.cover = { at, callMs, withinMs: leaseMs / 2 };
    }
    return jobs;
  };
  const claimed: StoredJob[] = [];
  let left = limit;
  for (let first = true; left > 0 && queue.length > 0; first = false) {
    const share = Math.max(1, Math.floor(left / queue.length));
    const round = queue.slice(0, left);
    if (first) reached = round[round.length - 1]!;
    const taken = await Promise.all(round.map((workspaceId) => claimIn(workspaceId, share)));
    for (const jobs of taken) {
      claimed.push(...jobs);
      left -= jobs.length;
    }
    // Workspaces not served yet first, then those that filled their share (they may have more).
    queue = [...queue.slice(round.length), ...round.filter((_, i) => taken[i]!.length === share)];
  }
  return claimed;
}

/** The lease that covers a call of `callMs` started within half a lease (`ClaimCover`): one lease, the call, half a lease. */
export function coveringLeaseMs(leaseMs: number, callMs: number): number {
  return leaseMs + callMs + leaseMs / 2;
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
// one statement per workspace (D87), batched like their first read.
// one statement per workspace (D87; batched like their first read).
const FENCE = `
  UPDATE jobs j SET lease_until = greatest(j.lease_until, to_timestamp(extract(epoch FROM now())::float8 + f.ms / 1000))
  FROM unnest($1::text[], $2::text[], $3::double precision[]) AS f(id, owner, ms)
  WHERE j.workspace_id = $4 AND j.id = f.id AND j.lease_owner = f.owner
  RETURNING j.id, j.lease_owner`;

type Fence = { id: string; workspace_id: string; owner: string; ms: number };
const fences = new WeakMap<Database, DataLoader<Fence, boolean, string>>();

/**
 * Fences one call of `callMs` at most: true when this claim still holds the job, whose lease
 * then covers the call and one more lease (time to record the outcome); false when another
 * claim took it meanwhile, in which case the caller makes no call and records nothing. A call
 * that its claim's lease already covers (`ClaimCover`: started soon enough, no longer than the
 * claimed kind's usual call) needs no statement: no other claim can have happened since.
 */
export async function fenceJob(
  database: Database,
  job: { id: string; workspace_id: string; cover?: ClaimCover },
  owner: string,
  callMs: number,
): Promise<boolean> {
  const cover = job.cover;
  if (cover && callMs <= cover.callMs && performance.now() - cover.at <= cover.withinMs) return true;
  let loader = fences.get(database);
  if (!loader) {
    loader = new DataLoader(
      async (keys) => {
        const held = new Set<string>();
        await Promise.all(
          byWorkspace(keys).map(async (group) => {
            const rows = await database.query<Columns<"jobs", "id"> & { lease_owner: string }>(FENCE, [
              group.map((k) => k.id),
              group.map((k) => k.owner),
              group.map((k) => k.ms),
              group[0]!.workspace_id,
            ]);
            for (const r of rows) held.add(`${r.id} ${r.lease_owner}`);
          }),
        );
        return keys.map((k) => held.has(`${k.id} ${k.owner}`));
      },
      { cache: false, maxBatchSize: 200, cacheKeyFn: (k) => `${k.id} ${k.owner}` },
    );
    fences.set(database, loader);
  }
  return loader.load({ id: job.id, workspace_id: job.workspace_id, owner, ms: callMs + env().pipelineLeaseMs });
}

/**
 * Records the outcome of a call that was made (after `fenceJob`), or settles jobs a claim
 * holds and could not run (put back, rescheduled). While the database cannot be reached (a
 * restart) it tries again, for most of the lease the fence left after the call, so the outcome
 * lands once the database is back and the job is not claimed and the call made again (D47),
 * and a job that could not run is due again at once instead of at the end of its lease. So it
 * does when its transaction lost to another and was rolled back whole (a deadlock's victim:
 * while Citus moves a shard with its writes held, D87), instead of leaving the message to wait
 * out the lease. Other errors are thrown at once.
 */
export async function recordOutcome<T>(record: () => Promise<T>): Promise<T> {
  const until = Date.now() + env().pipelineLeaseMs * 0.8;
  for (let wait = 100; ; wait = Math.min(wait * 2, 1_000)) {
    try {
      return await record();
    } catch (err) {
      if (!(isConnectionError(err) || isRolledBackByConflict(err)) || Date.now() + wait > until) throw err;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}

/**
 * Renews the leases of jobs a worker holds and has not finished (waiting for a connection, a
 * slot, a busy CPU), so they are not claimed again meanwhile. Never shortens a fenced lease.
 */
export async function renewLeases(
  database: Database,
  held: { id: string; workspace_id: string; owner: string }[],
  leaseMs: number,
): Promise<void> {
  await Promise.all(
    byWorkspace(held).map((group) =>
      database.query(
        `UPDATE jobs j SET lease_until = greatest(j.lease_until, now() + make_interval(secs => $3::double precision / 1000))
         FROM unnest($1::text[], $2::text[]) AS h(id, owner) WHERE j.workspace_id = $4 AND j.id = h.id AND j.lease_owner = h.owner`,
        [group.map((h) => h.id), group.map((h) => h.owner), leaseMs, group[0]!.workspace_id],
      ),
    ),
  );
}

/**
 * What becomes of a job its claim ran: done (deleted, in the transaction that records its
 * effect), or put back for `runAt` with its error, its attempt not counted when it never ran,
 * and a new payload, checked against its kind's schema.
 */
export type Settlement = { id: string; workspace_id: string; owner: string } & (
  { runAt?: undefined } | { runAt: Date; error?: string; countAttempt?: boolean; payload?: { kind: JobKind; value: unknown } }
);

/**
 * The CTEs (`settled`, `settled_r`, `settled_d`) that settle a claim's jobs of one workspace
 * (`workspace`, D87), given as `settlementRows` in the JSON parameter `rows`, each only while
 * its claim still holds it; `settled_r` and `settled_d` return the ids of those held. A part of
 * larger statements too (the run engine's last one, `advance-run.ts`).
 */
export function settleJobsPart(rows: string, workspace: string): string {
  return `settled AS (
    SELECT * FROM jsonb_to_recordset(${rows}::jsonb) AS s(id text, owner text, run_at timestamptz, uncount int, error text, payload jsonb)
  ),
  settled_r AS (
    UPDATE jobs j SET run_at = s.run_at, lease_until = NULL, lease_owner = NULL, attempts = j.attempts - s.uncount,
      last_error = coalesce(s.error, j.last_error), payload = coalesce(s.payload, j.payload)
    FROM settled s WHERE j.workspace_id = ${workspace} AND s.run_at IS NOT NULL AND j.id = s.id AND j.lease_owner = s.owner
    RETURNING j.id
  ),
  settled_d AS (DELETE FROM jobs j USING settled s WHERE j.workspace_id = ${workspace} AND s.run_at IS NULL AND j.id = s.id AND j.lease_owner = s.owner RETURNING j.id)`;
}

// A claim's jobs of one workspace ($2, D87) settle in one statement.
const SETTLE = `WITH ${settleJobsPart("$1", "$2")} SELECT id FROM settled_r UNION ALL SELECT id FROM settled_d`;

/**
 * Settles jobs, in one statement per workspace (in the caller's transaction, one after the
 * other); the ids of those still held (the others' leases were lost, and nothing changed for them).
 */
export async function settleJobs(sql: Handle, jobs: Settlement[]): Promise<Set<string>> {
  const held = new Set<string>();
  for (const group of byWorkspace(jobs)) for (const id of await settleIn(sql, group)) held.add(id);
  return held;
}

/** The rows of `settleJobsPart` for settlements (of one workspace), as its JSON parameter. */
export function settlementRows(jobs: readonly Settlement[]): string {
  return JSON.stringify(
    jobs.map((j) =>
      j.runAt
        ? {
            id: j.id,
            owner: j.owner,
            run_at: j.runAt,
            uncount: j.countAttempt === false ? 1 : 0,
            error: j.error ?? null,
            payload: j.payload === undefined ? null : parsePayload(j.payload.kind, j.payload.value),
          }
        : { id: j.id, owner: j.owner, run_at: null },
    ),
  );
}

async function settleIn(sql: Handle, jobs: Settlement[]): Promise<string[]> {
  return (await sql<Columns<"jobs", "id">>(SETTLE, [settlementRows(jobs), jobs[0]!.workspace_id])).map((r) => r.id);
}

/** Deletes a finished job in the transaction that records its effect; false if the lease was lost. */
export async function completeJob(sql: Handle, job: { id: string; workspace_id: string }, owner: string): Promise<boolean> {
  return (await settleJobs(sql, [{ id: job.id, workspace_id: job.workspace_id, owner }])).size > 0;
}

/**
 * Puts a job back for later; `countAttempt: false` when it never ran (pacing). A new payload
 * is checked against the job's kind's schema. False if the lease was lost.
 */
export async function rescheduleJob<K extends JobKind>(
  sql: Handle,
  job: { id: string; workspace_id: string; kind: K },
  owner: string,
  runAt: Date,
  opts: { error?: string; countAttempt?: boolean; payload?: JobPayload<K> } = {},
): Promise<boolean> {
  const settled = await settleJobs(sql, [
    {
      id: job.id,
      workspace_id: job.workspace_id,
      owner,
      runAt,
      error: opts.error,
      countAttempt: opts.countAttempt,
      payload: opts.payload && { kind: job.kind, value: opts.payload },
    },
  ]);
  return settled.size > 0;
}

/**
 * Deletes the job of one of `kinds` about `subjectId` that no claim holds (never claimed, put
 * back, or its lease expired: D47 leaves no call in flight then), in the caller's transaction;
 * whether there was one. A claim that took it first keeps it (the row is locked, then
 * re-checked); one that comes after finds nothing. So a job is either run by a claim or taken
 * here (D76's cancel), never both.
 */
export async function takeUnclaimedJob(sql: Handle, workspaceId: string, subjectId: string, kinds: JobKind[]): Promise<boolean> {
  const rows = await sql<Columns<"jobs", "id">>(
    `DELETE FROM jobs WHERE workspace_id = $3 AND subject_id = $1 AND kind = ANY($2::text[]) AND (lease_until IS NULL OR lease_until < now())
     RETURNING id`,
    [subjectId, kinds, workspaceId],
  );
  return rows.length > 0;
}

/**
 * Where a dead letter waits: never due, kept with its error for an operator to read. Earlier
 * than the flows' PARKED (9999-12-31), whose jobs resuming a flow makes due again.
 */
export const DEAD_LETTER = new Date("9000-01-01T00:00:00Z");

/**
 * Sets aside a job that can never run (its payload does not parse, its kind is unknown):
 * retrying would fail the same way, so it is never due again and keeps its error.
 */
export async function deadLetter(sql: Handle, job: { id: string; workspace_id: string }, owner: string, error: string): Promise<boolean> {
  const settlement = { id: job.id, workspace_id: job.workspace_id, owner, runAt: DEAD_LETTER, error: `dead letter: ${error}` };
  return (await settleJobs(sql, [settlement])).size > 0;
}

/** Puts jobs that never ran (pacing, an endpoint's share of slots) back for later, in one statement per workspace (D87). */
export async function deferJobs(sql: Handle, jobs: { id: string; workspace_id: string }[], owner: string, runAt: Date): Promise<void> {
  for (const group of byWorkspace(jobs)) {
    await sql(
      `UPDATE jobs SET run_at = $3, lease_until = NULL, lease_owner = NULL, attempts = attempts - 1
       WHERE workspace_id = $4 AND id = ANY($1::text[]) AND lease_owner = $2`,
      [group.map((j) => j.id), owner, runAt, group[0]!.workspace_id],
    );
  }
}

/**
 * What a new job is about and when it is due (now unless `runAt`); `at` is its creation time;
 * `cause`, the work that made it when a batch writes jobs for several (the current work's unless given).
 */
export type JobTarget = { subjectId: string; workspaceId: string; channelId?: string | null; runAt?: Date; at?: Date; cause?: Cause };

/** A new job's row as `insertJobs` reads it (one element of its JSON array). */
export type JobRow = Columns<
  "jobs",
  "id" | "subject_id" | "workspace_id" | "channel_id" | "run_at" | "created_at" | "request_id" | "traceparent"
> & {
  kind: JobKind;
  payload: JobPayload<JobKind>;
  /** A job written already claimed (`Handoff`): its claim's token and lease, from the statement's `now()`. */
  lease_owner?: string;
  lease_ms?: number;
};

/**
 * Every column of a new job, written in this one place for every path that enqueues: a fresh
 * id, the payload parsed by its kind's schema (a `JobPayloadError` if it does not match), and
 * the cause of the current work (D54).
 */
export function jobRow<K extends JobKind>(kind: K, payload: JobPayload<K>, target: JobTarget): JobRow {
  const at = target.at ?? new Date();
  const cause = target.cause ?? causeColumns();
  return {
    id: newId("job"),
    kind,
    subject_id: target.subjectId,
    workspace_id: target.workspaceId,
    channel_id: target.channelId ?? null,
    payload: parsePayload(kind, payload),
    run_at: target.runAt ?? at,
    created_at: at,
    request_id: cause.requestId,
    traceparent: cause.traceparent,
  };
}

// The jobs table's one INSERT, for every path that writes jobs: rows built by `jobRow` (passed
// as one JSON array) or rows a statement derives itself (`insertJobsOf`). A job written already
// claimed (`lease_owner`, `Handoff`) counts its attempt and starts its lease at the statement's
// `now()`. D87: the same statement wakes every instance's pipeline: each due row that no
// claim holds calls `pg_notify` on `JOBS_CHANNEL` (`wakeFor`), on the writer's connection and
// inside its transaction, so the notification goes out at commit and only if it commits, once
// per transaction however many rows and statements raise it (server/outbox/wake.ts). No
// trigger does it.
const insertInto = (select: string) => `INSERT INTO jobs (${COLUMNS}, lease_owner, lease_until, attempts)
    ${select}`;

/** The join that notifies for a row of an insert's source when `due` (an SQL condition over that row) holds. */
const wakeFor = (due: string) => `LEFT JOIN LATERAL (SELECT pg_notify('${JOBS_CHANNEL}', '') WHERE ${due}) AS wake ON true`;

/**
 * The statement (or the last part of a larger one: the message or the run and its job in one
 * statement) that inserts `jobRow`s passed as one JSON array, parameter `param`. `when`, a
 * condition, inserts them only if it holds (say, the run a CTE inserted exists).
 */
export function insertJobs(param: number, when = "true"): string {
  return insertInto(`SELECT ${COLUMNS}, lease_owner, now() + make_interval(secs => lease_ms / 1000), CASE WHEN lease_owner IS NULL THEN 0 ELSE 1 END
    FROM json_to_recordset($${param}::json) AS r(${ROW_TYPES})
      ${wakeFor("r.run_at <= now() + interval '1 second' AND r.lease_owner IS NULL")}
    WHERE ${when}`);
}

/** SQL expressions, over the rows of `insertJobsOf`'s `from`, for the columns of a job a statement derives. */
export type DerivedJob = { subjectId: string; workspaceId: string; payload: string; requestId: string; traceparent: string };

/**
 * SQL expressions (parameters of the statement) for the claim a statement writes its derived
 * jobs with (`Handoff.leaseOf`): the claim's token, or NULL to write them unclaimed, and the
 * lease in milliseconds.
 */
export type DerivedLease = { owner: string; ms: string };

/**
 * The part of a statement that inserts one job of `kind`, due now and unclaimed, for each row
 * of `from` (a table expression of the statement: the webhook deliveries its events fan out
 * to), for rows this process never holds, so that `jobRow` cannot build them; `job` gives
 * each column as an SQL expression over those rows. Ids have the shape of `newId("job")`.
 */
export function insertJobsOf(kind: JobKind, from: string, job: DerivedJob, lease?: DerivedLease): string {
  const claim = lease
    ? `${lease.owner}, CASE WHEN ${lease.owner} IS NOT NULL THEN now() + make_interval(secs => ${lease.ms} / 1000) END,
      CASE WHEN ${lease.owner} IS NOT NULL THEN 1 ELSE 0 END`
    : "NULL, NULL, 0";
  return insertInto(`SELECT ${newIdSql("job")}, '${kind}', ${job.subjectId}, ${job.workspaceId}, NULL, ${job.payload}, now(), now(),
      ${job.requestId}, ${job.traceparent}, ${claim}
    FROM ${from} ${wakeFor(`${job.subjectId} IS NOT NULL${lease ? ` AND ${lease.owner} IS NULL` : ""}`)}
    RETURNING ${COLUMNS}, attempts, lease_owner`);
}

const ROW_TYPES = `id text, kind text, subject_id text, workspace_id text, channel_id text, payload jsonb, run_at timestamptz,
  created_at timestamptz, request_id text, traceparent text, lease_owner text, lease_ms double precision`;

const COLUMNS = "id, kind, subject_id, workspace_id, channel_id, payload, run_at, created_at, request_id, traceparent";
const INSERT_ROWS = insertJobs(1);

/** Inserts `jobRow`s in one statement, in the caller's transaction (or alone, through `Database.query`). */
export async function insertJobRows(sql: Handle, rows: readonly JobRow[]): Promise<void> {
  if (rows.length > 0) await sql(INSERT_ROWS, [JSON.stringify(rows)]);
}

/** Enqueues one job in the caller's transaction (a Prisma one through `prismaHandle`); its id. */
export async function insertJob<K extends JobKind>(sql: Handle, kind: K, payload: JobPayload<K>, target: JobTarget): Promise<string> {
  const row = jobRow(kind, payload, target);
  await insertJobRows(sql, [row]);
  return row.id;
}
