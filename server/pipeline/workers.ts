import { Worker } from "node:worker_threads";
import { bundled } from "../../scripts/lib/bundle.mjs";
import type { Reservation } from "../channels/pacing.ts";
import { db } from "../db/client.ts";
import { log } from "../lib/log.ts";
import { recorder, type Recorder } from "../observability/metrics.ts";
import { setAdopter, type Adopter } from "../outbox/handoff.ts";
import type { JobKind } from "../outbox/job-kinds.ts";
import { claimToken, type StoredJob } from "../outbox/jobs.ts";
import { pipelineWaker } from "../outbox/wake.ts";
import { reserveFor, type Prepared } from "./run-pipeline.ts";

// The pipeline beside the API (docs/pipeline.md "Running it"): `count` worker threads, each
// running the inline loop (./worker-main.ts) on its own core with its own database pool. The
// server keeps what only it has and trades messages with them:
// - its wake-ups (work it accepted, the dashboard's, a LISTEN it does not hold) go to every
//   worker, one message per turn of its event loop;
// - their metric calls are moved on its recorder, so /metrics counts their work (D52);
// - their last claims make /readyz's pipeline check: the oldest of them;
// - the jobs it writes go to one of them at once, written leased to it, while it has room (as
//   the inline loop adopts them in its own thread: ../outbox/handoff.ts), with their pacing
//   reserved meanwhile; a hand-off's cover is read on the worker's clock.
// A worker that ends unexpectedly is logged and started again after a second; its jobs wait
// for their leases as after any crash (D47), and /readyz shows it meanwhile.

/** A metric call of a worker: the recorder's method and its arguments. */
export type MetricCall = { [K in keyof Recorder]: [K, Parameters<Recorder[K]>] }[keyof Recorder];
/** Jobs handed to a worker: each cover's `at` in wall-clock milliseconds; the reservations made for them, by channel. */
export type Adoption = { type: "adopt"; jobs: StoredJob[]; owner: string; prepared: [string, Reservation][] };
export type ToWorker = { type: "wake" } | { type: "stop" } | { type: "listening"; port: number } | Adoption;
export type FromWorker =
  | { type: "ready"; at: number | null }
  | { type: "metrics"; calls: MetricCall[] }
  | { type: "pass"; at: number | null }
  | { type: "leases"; worker: string; leaseMs: number; calls: Partial<Record<JobKind, number>> }
  | { type: "room"; room: boolean };

const RESTART_MS = 1_000;

/**
 * One worker's place: its thread (null while it starts again), its last claim's time, what its
 * claims lease (the hand-off's offer, once it said) and whether it has room for jobs now.
 */
type Slot = { worker: Worker | null; pass: number | null; lease: Extract<FromWorker, { type: "leases" }> | null; room: boolean };

/**
 * Starts the workers; resolves once each runs its loop, so the server listens with its
 * pipeline running, as with the loop in its own thread.
 */
export async function startPipelineWorkers(
  root: string,
  count: number,
): Promise<{ stop: () => Promise<void>; lastPass: () => number | null; listening: (port: number) => void }> {
  const file = await bundled(root, "server/pipeline/worker-main.ts", "pipeline-worker");
  let stopping = false;
  const slots: Slot[] = Array.from({ length: count }, () => ({ worker: null, pass: null, lease: null, room: true }));
  const exited: Promise<void>[] = [];
  // The port the server listens on, once it does: a worker's links to the service (APP_URL
  // unset) name it, as the server's own do (a PORT of 0 is known only then).
  let port: number | null = null;

  const start = (index: number) => {
    const worker = new Worker(file, { name: `pipeline-${index + 1}` });
    const slot = slots[index]!;
    Object.assign(slot, { worker, lease: null, room: true });
    if (port !== null) worker.postMessage({ type: "listening", port } satisfies ToWorker);
    worker.on("message", (message: FromWorker) => {
      if (message.type === "ready") {
        slot.pass = message.at;
        readied(index);
      } else if (message.type === "pass") slot.pass = message.at;
      else if (message.type === "leases") slot.lease = message;
      else if (message.type === "room") slot.room = message.room;
      else {
        const metrics = recorder();
        if (metrics) for (const [name, args] of message.calls) (metrics[name] as (...a: unknown[]) => void)(...args);
      }
    });
    worker.on("error", (err) => log().error({ err, worker: index + 1 }, "a pipeline worker failed"));
    exited[index] = new Promise((resolve) =>
      worker.once("exit", (code) => {
        slot.worker = null;
        resolve();
        if (stopping) return;
        log().error({ code, worker: index + 1 }, "a pipeline worker ended; it is started again");
        setTimeout(() => !stopping && start(index), RESTART_MS).unref();
      }),
    );
  };
  const waiting = new Set(Array.from({ length: count }, (_, i) => i));
  let allReady!: () => void;
  const ready = new Promise<void>((resolve) => (allReady = resolve));
  const readied = (index: number) => {
    waiting.delete(index);
    if (waiting.size === 0) allReady();
  };
  for (let i = 0; i < count; i++) start(i);

  let waking = false;
  const onWake = () => {
    if (waking) return;
    waking = true;
    setImmediate(() => {
      waking = false;
      for (const { worker } of slots) worker?.postMessage({ type: "wake" } satisfies ToWorker);
    });
  };
  pipelineWaker().on("wake", onWake);

  await ready;
  const handoff = handOff(await db(), slots);
  setAdopter(handoff.adopter);
  return {
    // Not ready while any worker has not claimed for a while (or has never claimed yet).
    lastPass: () => (slots.some(({ pass }) => pass === null) ? null : Math.min(...slots.map(({ pass }) => pass!))),
    listening: (listeningOn: number) => {
      port = listeningOn;
      for (const { worker } of slots) worker?.postMessage({ type: "listening", port } satisfies ToWorker);
    },
    stop: async () => {
      stopping = true;
      // No hand-off starts now, and those begun reach their workers before the stop messages.
      setAdopter(null);
      await handoff.posted();
      pipelineWaker().off("wake", onWake);
      for (const { worker } of slots) worker?.postMessage({ type: "stop" } satisfies ToWorker);
      await Promise.all(exited);
    },
  };
}

/**
 * The server's hand-off to its workers (`Adopter`): a job this process writes goes leased to a
 * worker with room (the next one, in turn), under a token of its own that names the worker.
 * Pacing is reserved on this thread's pool while the write runs; the jobs and the reservations
 * (those that answered) go to the worker once both are done (`posted` waits for those under
 * way). A worker that ended meanwhile never gets them: they wait for their lease, as after a
 * crash (D47).
 */
function handOff(
  database: Awaited<ReturnType<typeof db>>,
  slots: readonly Slot[],
): { adopter: Adopter<Prepared>; posted: () => Promise<void> } {
  let next = 0;
  const HANDOFF = ":handoff"; // the tokens: `<worker>:handoff#<n>` (`claimToken`)
  const posting = new Set<Promise<void>>();
  const adopter: Adopter<Prepared> = {
    offer() {
      for (let tried = 0; tried < slots.length; tried++) {
        const { worker, lease, room } = slots[next]!;
        next = (next + 1) % slots.length;
        if (!worker || !lease || !room) continue;
        const owner = claimToken(`${lease.worker}${HANDOFF}`);
        return { owner, leaseMs: lease.leaseMs, calls: lease.calls };
      }
      return null;
    },
    prepare: (jobs) => reserveFor(database, jobs),
    adopt(jobs, owner, prepared) {
      // The worker the token names, if it still runs (a restarted one has another name).
      const named = owner.slice(0, owner.lastIndexOf(`${HANDOFF}#`));
      const worker = slots.find(({ lease }) => lease?.worker === named)?.worker;
      if (!worker) return;
      const post = (async () => {
        const reserved = await Promise.all(
          [...(prepared ?? [])].map(async ([channelId, reservation]) => [channelId, await reservation.catch(() => null)] as const),
        );
        const message: Adoption = {
          type: "adopt",
          jobs: jobs.map((job) => (job.cover ? { ...job, cover: { ...job.cover, at: job.cover.at + performance.timeOrigin } } : job)),
          owner,
          prepared: reserved.filter((r): r is [string, Reservation] => r[1] !== null),
        };
        worker.postMessage(message);
      })()
        .catch((err: unknown) => log().error({ err }, "jobs could not be handed to a pipeline worker; they wait for their lease"))
        .finally(() => posting.delete(post));
      posting.add(post);
    },
  };
  return { adopter, posted: async () => void (await Promise.all(posting)) };
}
