import { runtime } from "../lib/runtime.ts";
import { coveringLeaseMs, type ClaimCover, type JobRow, type StoredJob } from "./jobs.ts";
import type { JobKind } from "./job-kinds.ts";

// A job this process writes can skip the outbox's claim: while this process runs a pipeline
// worker with room (the inline loop), the statement that writes the job writes it already
// claimed by that worker, with the lease a claim would give it (`coveringLeaseMs`: its usual
// call is covered, no fence needed), and once the transaction commits the worker starts it at
// once, with the row its handler would read first. No claim statement, no read, no wait for
// the loop's next pass. If the process dies before the job ends, its lease expires and any
// worker claims it, as after a claim. One worker per process (server/lib/runtime.ts), which
// the dashboard's route handlers hand off to as well.

/** What a worker that adopts jobs offers: a hand-off while it has room, and the jobs to start. */
export type Adopter<P = unknown> = {
  /** A new claim's token and lease, or null when the worker has no room (the jobs then wait for a claim). */
  offer(): { owner: string; leaseMs: number; calls: Partial<Record<JobKind, number>> } | null;
  /**
   * Begins what jobs need before they start (their provider calls' pacing) while the
   * statement that writes them runs, so they start as soon as it commits; for `adopt`.
   */
  prepare(jobs: readonly StoredJob[]): P;
  /** Starts committed jobs that a hand-off wrote, with what `prepare` began for them (if it was called). */
  adopt(jobs: StoredJob[], owner: string, prepared?: P): void;
};

declare module "../lib/runtime.ts" {
  interface Runtime {
    /** The pipeline worker that starts jobs this process writes, while it runs. */
    adopter?: Adopter | null;
  }
}

/** The inline loop registers its worker while it runs; null when it stops. */
export function setAdopter(adopter: Adopter | null): void {
  runtime().adopter = adopter;
}

/**
 * One statement's (or transaction's) hand-off: `lease` marks the new jobs its worker will run
 * and keeps them; `commit`, called once the transaction has committed, starts those of them
 * that were written. A hand-off whose transaction failed is dropped: its jobs were not written.
 */
export class Handoff {
  private readonly held: StoredJob[] = [];
  private readonly cover: { at: number; withinMs: number };
  private prepared: unknown;

  private constructor(
    private readonly owner: string,
    private readonly leaseMs: number,
    private readonly calls: Partial<Record<JobKind, number>>,
    private readonly adopter: Adopter,
  ) {
    // Read before the statement that writes the leases: their `now()` comes later.
    this.cover = { at: performance.now(), withinMs: leaseMs / 2 };
  }

  /** A hand-off to this process's worker, or null when none runs here or it has no room. */
  static take(): Handoff | null {
    const adopter = runtime().adopter;
    const offer = adopter?.offer();
    return adopter && offer ? new Handoff(offer.owner, offer.leaseMs, offer.calls, adopter) : null;
  }

  /**
   * The row written claimed by this hand-off's worker, when its kind calls out (the kinds the
   * worker's claims cover); other rows unchanged. `subject` is the row its handler reads first.
   */
  lease(row: JobRow, subject: unknown): JobRow {
    const callMs = this.calls[row.kind];
    if (callMs === undefined) return row;
    const leased = { ...row, lease_owner: this.owner, lease_ms: coveringLeaseMs(this.leaseMs, callMs) };
    const cover: ClaimCover = { ...this.cover, callMs };
    const { lease_owner: _owner, lease_ms: _ms, ...columns } = leased;
    this.held.push({ ...columns, attempts: 1, cover, subject });
    return leased;
  }

  /**
   * The claim, in milliseconds, that a statement writes the jobs of `kind` it derives itself
   * with (`insertJobsOf`'s lease: a webhook delivery's job written with its event), or null
   * when its kind is not one the worker's claims cover. The statement returns them: `hold`.
   */
  leaseOf(kind: JobKind): { owner: string; ms: number } | null {
    const callMs = this.calls[kind];
    return callMs === undefined ? null : { owner: this.owner, ms: coveringLeaseMs(this.leaseMs, callMs) };
  }

  /** The jobs a statement wrote claimed under `leaseOf`, as it returned them: `commit` starts them. */
  hold(jobs: readonly StoredJob[]): void {
    for (const job of jobs) {
      const callMs = this.calls[job.kind as JobKind];
      if (callMs !== undefined) this.held.push({ ...job, cover: { ...this.cover, callMs } });
    }
  }

  /**
   * Once the rows are leased, as the statement that writes them goes out: the worker begins
   * what their jobs need before they start, meanwhile (`Adopter.prepare`). What it begins for
   * jobs that are not written is lost: a provider call paced for nothing leaves the channel's
   * second one call short (only a message refused at the same moment, or whose idempotent
   * request lost its claim).
   */
  begin(): void {
    if (this.held.length) this.prepared = this.adopter.prepare(this.held);
  }

  /** After the commit: the worker starts the leased jobs whose subjects were written; how many. */
  commit(written: (subjectId: string) => boolean): number {
    const jobs = this.held.filter((job) => written(job.subject_id));
    if (jobs.length) this.adopter.adopt(jobs, this.owner, this.prepared);
    return jobs.length;
  }
}
