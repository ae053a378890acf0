import { hostname } from "node:os";
import type { Database } from "../db/client.ts";
import { env } from "../lib/env.ts";
import { randomBase62 } from "../lib/ids.ts";
import { log } from "../lib/log.ts";
import { recorder } from "../observability/metrics.ts";
import { withCause } from "../observability/request-context.ts";
import { inSpan } from "../observability/tracing.ts";
import { dispatchMessage, settleMessage } from "../messaging/dispatch-message.ts";
import { simulateStep } from "../messaging/simulate-step.ts";
import { backoffMs } from "../outbox/backoff.ts";
import { loadChannel } from "../providers/load-channel.ts";
import type { ChannelConfig } from "../providers/provider.ts";
import { advanceRun } from "../flows/advance-run.ts";
import { triggerFlows } from "../flows/trigger-flows.ts";
import { deliverWebhook, MAX_IN_FLIGHT_PER_ENDPOINT } from "../webhooks/deliver-webhook.ts";
import { keyedSlots } from "../outbox/keyed-slots.ts";
import { wakePipeline } from "../outbox/wake.ts";
import {
  claimJobs,
  claimToken,
  deadLetter,
  deferJobs,
  readJob,
  recordOutcome,
  renewLeases,
  rescheduleJob,
  type Job,
  type StoredJob,
  WORKER_SLOTS,
} from "../outbox/jobs.ts";
import { JobPayloadError, type JobKind } from "../outbox/job-kinds.ts";
import { sweep } from "./sweep.ts";
import type { Adopter } from "../outbox/handoff.ts";
import { templateSyncJob } from "../whatsapp/sync-templates.ts";
import { reserveSlots, type Reservation } from "../channels/pacing.ts";
import { usableChannel, type ConfigRow } from "../providers/load-channel.ts";
import { CHANNEL_TYPES } from "../channels/registry.ts";
import { providerFor } from "../channels/server-registry.ts";

// The delivery pipeline's worker (ARCHITECTURE "Shape"): claims due jobs in bounded batches
// whenever fewer than half of its slots are busy, paces the ones that call a provider, and runs
// each in its own slot. A slow job holds only its slot: claiming never waits for other jobs
// to end (D49). The inline loop keeps one worker for the life of the process; the cron route
// and `svc tick` run one pass: claims until no job is due or the time budget is spent, then
// waits for the jobs it started.

/**
 * What the jobs of one claim share: `channels`, each channel opened (secrets decrypted) once a
 * claim, from the row its pacing read; `callBy`, for each provider call paced, when it must
 * have started (`reserveSlots`).
 */
type PassContext = {
  channels: (id: string) => Promise<ChannelConfig | null>;
  callBy: Map<string, number>;
  /** A webhook delivery's request, or a send's provider call, is over: its endpoint's or channel's slot goes to the next (`keyedSlots`). */
  requestEnded: (jobId: string) => void;
  /** How many sends of a channel the worker runs at once (its provider's `maxInFlight`). */
  maxInFlight: (channelId: string) => number;
};

/** The pacing reservations a hand-off began for its jobs' provider calls, by channel (`Adopter.prepare`). */
export type Prepared = Map<string, Promise<Reservation>>;
type Handler<K extends JobKind> = (database: Database, job: Job<K>, owner: string, pass: PassContext) => Promise<string>;

/** Each kind's handler, given the job with its payload parsed by the kind's schema. */
const HANDLERS: { [K in JobKind]: Handler<K> } = {
  "message.dispatch": (database, job, owner, pass) =>
    dispatchMessage(database, job, owner, pass.channels, pass.callBy.get(job.id), () => pass.requestEnded(job.id)),
  "message.settle": settleMessage,
  "message.simulate": simulateStep,
  "webhook.deliver": (database, job, owner, pass) => deliverWebhook(database, job, owner, () => pass.requestEnded(job.id)),
  "flow.step": advanceRun,
  "contact_event.process": triggerFlows,
  "maintenance.sweep": sweep,
  "whatsapp.templates_sync": templateSyncJob,
};

/**
 * The kinds whose jobs call out, each with its usual call's timeout: their claim's lease covers
 * that call, so it starts without a fence statement of its own (`claimJobs`). A send's usual
 * call is the shortest of the provider clients' (an HTTP API's); a longer call (an e-mail
 * through SMTP) still fences.
 */
const calls = (): Partial<Record<JobKind, number>> => ({
  "message.dispatch": Math.min(...CHANNEL_TYPES.map((type) => providerFor(type).timeoutMs)),
  "webhook.deliver": env().webhookTimeoutMs,
});

export type PipelineCounts = { claimed: number; completed: number; paced: number; errors: number; [outcome: string]: number };
export type PipelineOptions = {
  budgetMs?: number;
  batchSize?: number;
  concurrency?: number;
  leaseMs?: number;
  owner?: string;
  /** Told each time `hasRoom` changes: a worker thread tells the server, which hands it jobs while it has room (./workers.ts). */
  onRoom?: (room: boolean) => void;
};

export function workerId(): string {
  return `${hostname()}:${process.pid}:${randomBase62(6)}`;
}

export type PipelineWorker = Adopter<Prepared> & {
  /** The worker's name in its claims' tokens (`claimToken`). */
  id: string;
  /** What its claims lease: the lease, and the usual call of the kinds that call out (`claimJobs`). */
  leases: { leaseMs: number; calls: Partial<Record<JobKind, number>> };
  counts: PipelineCounts;
  /** Jobs running now. */
  busy: () => number;
  /** The jobs running now, each with how long it has run: for the log of a stop that waits on them. */
  inFlight: () => { job: string; kind: JobKind; workspace: string; seconds: number }[];
  /** Whether the worker would claim now (fewer than half of its slots are busy). */
  hasRoom: () => boolean;
  /** Claims once and starts what it claimed; the number claimed (0: nothing due). */
  claim: () => Promise<number>;
  /** Resolves when a job ends or starts, or a claim's or hand-off's jobs have been started; at once when none runs or is being started. */
  slotFreed: () => Promise<void>;
  /** Resolves when every started job has ended. */
  drained: () => Promise<void>;
};

export function pipelineWorker(database: Database, opts: PipelineOptions = {}): PipelineWorker {
  const worker = opts.owner ?? workerId();
  const concurrency = opts.concurrency ?? WORKER_SLOTS;
  const leaseMs = opts.leaseMs ?? env().pipelineLeaseMs;
  const counts: PipelineCounts = { claimed: 0, completed: 0, paced: 0, errors: 0 };
  const running = new Map<Promise<void>, Running>();
  // D49: a webhook delivery starts within its endpoint's slots, and a send within its channel's
  // (its provider's `maxInFlight`), or waits for one, still leased: one slow endpoint or relay
  // never takes the slots every other endpoint, channel and workspace needs.
  const webhookSlots = keyedSlots<Started>(wakePipeline);
  const channelSlots = keyedSlots<Started>(wakePipeline);
  // Jobs held but not finished have their leases renewed a few times a lease, so a job that
  // waits (a busy CPU, a slow database) is not claimed again; correctness does not depend on
  // it (the fence does), only how much work a busy machine repeats.
  let renewal: NodeJS.Timeout | undefined;
  const renew = () => {
    overdue(running.values(), leaseMs);
    const held = [
      ...running.values(),
      ...[...webhookSlots.waiting(), ...channelSlots.waiting()].map(({ job, owner }) => ({
        id: job.id,
        workspace_id: job.workspace_id,
        owner,
      })),
    ];
    renewLeases(database, held, leaseMs).catch((err: unknown) => log().warn({ err }, "lease renewal failed"));
  };
  // The deliveries and sends whose call holds their endpoint's or channel's slot, by job: the
  // slot is freed once, when the call is over (the handler says so) or else when the job ends.
  // Recording the answer holds none: a send's slot time is its provider's, not the database's.
  const inRequest = new Map<string, { slots: typeof webhookSlots; key: string }>();
  /** The slots a job's call is held to: its endpoint's or its channel's, with their cap; none for other kinds. */
  const slotOf = (job: Job, pass: PassContext) =>
    job.kind === "webhook.deliver"
      ? { slots: webhookSlots, key: job.payload.endpoint_id, max: MAX_IN_FLIGHT_PER_ENDPOINT }
      : job.kind === "message.dispatch" && job.channel_id
        ? { slots: channelSlots, key: job.channel_id, max: pass.maxInFlight(job.channel_id) }
        : null;
  const endRequest = (jobId: string) => {
    const held = inRequest.get(jobId);
    if (held === undefined) return;
    inRequest.delete(jobId);
    const next = held.slots.release(held.key);
    if (next) run(next.job, next.owner, next.pass);
  };
  const run = (job: Job, owner: string, pass: PassContext) => {
    const slot = slotOf(job, pass);
    if (slot) inRequest.set(job.id, slot);
    const started: Promise<void> = runJob(database, job, owner, pass, counts).finally(() => {
      running.delete(started);
      endRequest(job.id);
      if (running.size === 0 && renewal) renewal = void clearInterval(renewal);
      noteRoom();
    });
    running.set(started, { id: job.id, workspace_id: job.workspace_id, owner, kind: job.kind, since: Date.now(), told: false });
    noteRoom();
    renewal ??= setInterval(renew, Math.max(250, leaseMs / 3)).unref();
  };
  const start = (job: Job, owner: string, pass: PassContext) => {
    const slot = slotOf(job, pass);
    if (slot && !slot.slots.admit(slot.key, { job, owner, pass }, slot.max)) counts.paced++;
    else run(job, owner, pass);
  };
  const adoptions = new Set<Promise<void>>(); // hand-offs being started
  let launching = 0; // jobs being paced before they start: they count against the slots too
  const hasRoom = () => running.size + launching <= concurrency / 2;
  let room = true;
  // Who waits for a slot (`slotFreed`): told at the next change of the jobs running or being
  // started. A wait that ended at once whenever no job ran spun without end while a hand-off's
  // jobs were still being started (no room, nothing running): a loop of resolved promises that
  // never let the event loop run, so those jobs never started and nothing was claimed again.
  let changed: (() => void)[] = [];
  const noteRoom = () => {
    const waiting = changed;
    changed = [];
    for (const tell of waiting) tell();
    if (hasRoom() === room) return;
    room = !room;
    opts.onRoom?.(room);
  };
  /** Starts the jobs of one claim (or hand-off): payloads parsed, providers paced, each in its slot. */
  const launch = async (jobs: StoredJob[], owner: string, prepared?: Prepared) => {
    if (jobs.length === 0) return;
    counts.claimed += jobs.length;
    launching += jobs.length;
    noteRoom();
    try {
      await overdueStep(paceAndStart(jobs, owner, prepared), leaseMs, { jobs: jobs.length }, "pacing and starting claimed jobs");
    } catch (err) {
      // None of them started (a lost database): they go back unclaimed, their attempt not
      // counted, once the database answers again, instead of waiting for their lease.
      await recordOutcome(() => deferJobs(database.query, jobs, owner, new Date())).catch(() => {});
      throw err;
    } finally {
      launching -= jobs.length;
      noteRoom();
    }
  };
  const paceAndStart = async (jobs: StoredJob[], owner: string, prepared?: Prepared) => {
    const runnable = await readJobs(database, jobs, owner, counts);
    const rows = new Map<string, ConfigRow | null>(); // read with their pacing
    const opened = new Map<string, Promise<ChannelConfig | null>>();
    const pass: PassContext = {
      callBy: new Map(),
      requestEnded: endRequest,
      maxInFlight: (id) => {
        const type = rows.get(id)?.type;
        return type ? providerFor(type).maxInFlight : concurrency;
      },
      channels: (id) => {
        if (!opened.has(id)) opened.set(id, rows.has(id) ? (async () => usableChannel(rows.get(id)!))() : loadChannel(database, id));
        return opened.get(id)!;
      },
    };
    for (const job of await pace(database, runnable, owner, counts, pass.callBy, rows, prepared)) start(job, owner, pass);
  };
  return {
    id: worker,
    leases: { leaseMs, calls: calls() },
    counts,
    busy: () => running.size,
    inFlight: () =>
      [...running.values()].map((r) => ({ job: r.id, kind: r.kind, workspace: r.workspace_id, seconds: (Date.now() - r.since) / 1000 })),
    hasRoom,
    async claim() {
      const owner = claimToken(worker);
      const jobs = await overdueStep(
        claimJobs(database, owner, Math.min(opts.batchSize ?? 200, concurrency - running.size - launching), leaseMs, calls(), {
          endpoints: webhookSlots.full(),
          channels: channelSlots.full(),
        }),
        leaseMs,
        {},
        "claiming jobs",
      );
      await launch(jobs, owner);
      return jobs.length;
    },
    offer: () => (hasRoom() ? { owner: claimToken(worker), leaseMs, calls: calls() } : null),
    prepare: (jobs) => reserveFor(database, jobs),
    adopt: (jobs, owner, prepared) => {
      const started = launch(jobs, owner, prepared)
        .catch((err: unknown) => log().error({ err }, "pipeline could not start jobs handed over; they wait for their lease"))
        .finally(() => adoptions.delete(started));
      adoptions.add(started);
    },
    slotFreed: () => (running.size + launching ? new Promise<void>((resolve) => changed.push(resolve)) : Promise.resolve()),
    drained: async () => {
      await Promise.all(adoptions);
      // Deliveries and sends still waiting for a slot go back to the outbox unstarted, their
      // attempt not counted: the worker stops after the calls in flight, not after a slow
      // endpoint's or relay's backlog.
      const waiting = [...webhookSlots.withdraw(), ...channelSlots.withdraw()];
      for (const owner of new Set(waiting.map((w) => w.owner))) {
        const jobs = waiting.filter((w) => w.owner === owner).map((w) => w.job);
        await recordOutcome(() => deferJobs(database.query, jobs, owner, new Date())).catch(() => {});
      }
      while (running.size) await Promise.all(running.keys());
    },
  };
}

/** What the worker needs to start a job: the claim (or hand-off) that holds it, and its pass's context. */
type Started = { job: Job; owner: string; pass: PassContext };

/** A job this worker runs: what its lease renewal names, and since when it runs. */
type Running = { id: string; workspace_id: string; owner: string; kind: JobKind; since: number; told: boolean };

/**
 * Each job has a bound of its own (a provider's or endpoint's timeout, a statement's time), far
 * inside its lease; one that runs past its lease has met something without one. It keeps its
 * slot and its lease (nothing can cut a call short from outside), and is logged once, by id and
 * kind, so that the operator sees what holds the slot instead of a pipeline that slows for no
 * reason they can see.
 */
function overdue(jobs: Iterable<Running>, leaseMs: number): void {
  const now = Date.now();
  for (const job of jobs) {
    if (job.told || now - job.since < leaseMs) continue;
    job.told = true;
    log().warn(
      { job: job.id, kind: job.kind, workspace: job.workspace_id, seconds: Math.round((now - job.since) / 1000) },
      "a pipeline job has run longer than its lease; its slot stays taken until it ends",
    );
  }
}

/**
 * A step of the worker's own (a claim, the pacing of what it claimed) that waits longer than a
 * lease holds every job behind it: logged once, with what it was doing, and awaited as before.
 */
async function overdueStep<T>(step: Promise<T>, leaseMs: number, detail: Record<string, unknown>, doing: string): Promise<T> {
  const since = Date.now();
  const timer = setTimeout(
    () =>
      log().warn({ ...detail, seconds: Math.round((Date.now() - since) / 1000) }, `the pipeline has waited longer than a lease ${doing}`),
    leaseMs,
  ).unref();
  try {
    return await step;
  } finally {
    clearTimeout(timer);
  }
}

/** One pass (cron, `svc tick`): claims until nothing is due or the budget is spent, then waits for its jobs. */
export async function runPipeline(database: Database, opts: PipelineOptions = {}): Promise<PipelineCounts> {
  const deadline = Date.now() + (opts.budgetMs ?? 5_000);
  const worker = pipelineWorker(database, opts);
  while (Date.now() < deadline) {
    if (!worker.hasRoom()) {
      await worker.slotFreed();
      continue;
    }
    if ((await worker.claim()) > 0) continue;
    if (worker.busy() === 0) break;
    await worker.slotFreed();
  }
  await worker.drained();
  return worker.counts;
}

async function runJob(database: Database, job: Job, owner: string, pass: PassContext, counts: PipelineCounts): Promise<void> {
  try {
    // D54: the job's span continues the trace of the request (or job) that created it, and
    // what the job records (events, their deliveries) carries that request on.
    const attributes = { "svc.job.kind": job.kind, "svc.job.id": job.id, "svc.workspace": job.workspace_id, "svc.subject": job.subject_id };
    const outcome = await inSpan(`job ${job.kind}`, { kind: "consumer", parent: job.traceparent, attributes }, (span) =>
      withCause({ requestId: job.request_id, traceparent: span.traceparent ?? job.traceparent }, async () => {
        const result = await handle(database, job, owner, pass);
        span.set({ "svc.job.outcome": result });
        return result;
      }),
    );
    if (job.kind === "webhook.deliver") recorder()?.webhookDelivery(outcome); // D52
    counts[outcome] = (counts[outcome] ?? 0) + 1;
    counts.completed++;
  } catch (err) {
    if (err instanceof JobPayloadError) return setAside(database, job, owner, err, counts);
    counts.errors++;
    // D54: enough to find the message or delivery and the failure's kind, no personal data.
    log().error(
      {
        err,
        job: job.id,
        kind: job.kind,
        workspace: job.workspace_id,
        [job.kind.startsWith("message.") ? "message" : "subject"]: job.subject_id,
        code: failureCode(err),
      },
      "pipeline job failed; retrying later",
    );
    // A job that failed because the database was lost is put back once it answers again, not
    // left leased until its lease ends.
    const retryAt = new Date(Date.now() + backoffMs(job.attempts));
    await recordOutcome(() => rescheduleJob(database.query, job, owner, retryAt, { error: String(err) })).catch(() => {});
  }
}

function handle<K extends JobKind>(database: Database, job: Job<K>, owner: string, pass: PassContext): Promise<string> {
  return (HANDLERS[job.kind] as Handler<K>)(database, job, owner, pass);
}

/** The claimed jobs with their payloads parsed by their kinds' schemas; those that do not parse are set aside. */
async function readJobs(database: Database, stored: StoredJob[], owner: string, counts: PipelineCounts): Promise<Job[]> {
  const jobs: Job[] = [];
  for (const s of stored) {
    try {
      jobs.push(readJob(s));
    } catch (err) {
      if (!(err instanceof JobPayloadError)) throw err;
      await setAside(database, s, owner, err, counts);
    }
  }
  return jobs;
}

/**
 * A job that would fail the same way at every retry (a payload its kind's schema refuses, when
 * claimed or when its handler writes a new one; a kind no handler knows) is logged and set
 * aside as a dead letter, counted with the errors.
 */
async function setAside(database: Database, job: StoredJob, owner: string, err: JobPayloadError, counts: PipelineCounts): Promise<void> {
  counts.errors++;
  counts.dead_letter = (counts.dead_letter ?? 0) + 1;
  log().error(
    { err, job: job.id, kind: job.kind, workspace: job.workspace_id, subject: job.subject_id, code: failureCode(err) },
    "pipeline job cannot run; set aside as a dead letter",
  );
  await deadLetter(database.query, job, owner, err.message).catch(() => {});
}

function failureCode(err: unknown): string {
  if (err && typeof err === "object") {
    const code = (err as { code?: unknown }).code;
    if (typeof code === "string" && code) return code;
    if (err instanceof Error && err.name !== "Error") return err.name;
  }
  return "internal_error";
}

/**
 * A hand-off's pacing, begun while the statement that writes its jobs runs: one reservation
 * per channel, for as many provider calls as the hand-off leased (`Adopter.prepare`). Any
 * process may make it (the server for its worker threads): the reservations are the database's.
 */
export function reserveFor(database: Database, jobs: readonly StoredJob[]): Prepared {
  const wanted = new Map<string, { workspaceId: string; n: number }>();
  for (const job of jobs)
    if (job.kind === "message.dispatch" && job.channel_id) {
      wanted.set(job.channel_id, { workspaceId: job.workspace_id, n: (wanted.get(job.channel_id)?.n ?? 0) + 1 });
    }
  const prepared: Prepared = new Map();
  for (const [channelId, { workspaceId, n }] of wanted) {
    const reservation = reserveSlots(database, workspaceId, channelId, n);
    reservation.catch(() => {}); // its failure is the launch's (`pace`), if the jobs are written
    prepared.set(channelId, reservation);
  }
  return prepared;
}

/**
 * Before jobs run: provider jobs over their channel's cap in this second go back to the start
 * of the next one (webhook jobs are held to their endpoint's slots when they start).
 * Each channel's row, read by its reservation, goes to `rows`. A hand-off's reservations were
 * made while its jobs were written (`prepared`): for as many calls as it leased, at least
 * those written; one whose deadline passed meanwhile is not used, its slots left unused.
 */
async function pace(
  database: Database,
  jobs: Job[],
  owner: string,
  counts: PipelineCounts,
  callBy: Map<string, number>,
  rows: Map<string, ConfigRow | null>,
  prepared?: Prepared,
): Promise<Job[]> {
  const byChannel = new Map<string, Job[]>();
  const free: Job[] = [];
  for (const job of jobs) {
    if (job.channel_id && job.kind === "message.dispatch") {
      const list = byChannel.get(job.channel_id) ?? [];
      list.push(job);
      byChannel.set(job.channel_id, list);
    } else free.push(job);
  }
  if (byChannel.size === 0) return free;
  for (const [channelId, list] of byChannel) {
    let reservation = await prepared?.get(channelId);
    // One whose calls could no longer start in time (the write took long) is made again.
    if (!reservation || Date.now() >= reservation.callBy)
      reservation = await reserveSlots(database, list[0]!.workspace_id, channelId, list.length);
    const { granted, nextSecondAt, callBy: by, channel } = reservation;
    rows.set(channelId, channel);
    for (const job of list.slice(0, granted)) callBy.set(job.id, by);
    free.push(...list.slice(0, granted));
    const later = list.slice(granted);
    counts.paced += later.length;
    await deferJobs(database.query, later, owner, nextSecondAt);
  }
  return free;
}
