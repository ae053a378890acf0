import { Worker } from "node:worker_threads";
import { bundled } from "../../scripts/lib/bundle.mjs";
import { log } from "../lib/log.ts";
import { recorder, type Recorder } from "../observability/metrics.ts";
import { pipelineWaker } from "../outbox/wake.ts";

// The pipeline beside the API (docs/pipeline.md "Running it"): `count` worker threads, each
// running the inline loop (./worker-main.ts) on its own core with its own database pool. The
// server keeps what only it has and trades messages with them:
// - its wake-ups (work it accepted, the dashboard's, a LISTEN it does not hold) go to every
//   worker, one message per turn of its event loop;
// - their metric calls are moved on its recorder, so /metrics counts their work (D52);
// - their last claims make /readyz's pipeline check: the oldest of them.
// A worker that ends unexpectedly is logged and started again after a second; its jobs wait
// for their leases as after any crash (D47), and /readyz shows it meanwhile.

/** A metric call of a worker: the recorder's method and its arguments. */
export type MetricCall = { [K in keyof Recorder]: [K, Parameters<Recorder[K]>] }[keyof Recorder];
export type ToWorker = { type: "wake" } | { type: "stop" } | { type: "listening"; port: number };
export type FromWorker =
  { type: "ready"; at: number | null } | { type: "metrics"; calls: MetricCall[] } | { type: "pass"; at: number | null };

const RESTART_MS = 1_000;

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
  const passes: (number | null)[] = Array.from({ length: count }, () => null);
  const workers: (Worker | null)[] = Array.from({ length: count }, () => null);
  const exited: Promise<void>[] = [];
  // The port the server listens on, once it does: a worker's links to the service (APP_URL
  // unset) name it, as the server's own do (a PORT of 0 is known only then).
  let port: number | null = null;

  const start = (index: number) => {
    const worker = new Worker(file, { name: `pipeline-${index + 1}` });
    workers[index] = worker;
    if (port !== null) worker.postMessage({ type: "listening", port } satisfies ToWorker);
    worker.on("message", (message: FromWorker) => {
      if (message.type === "ready") {
        passes[index] = message.at;
        readied(index);
      } else if (message.type === "pass") passes[index] = message.at;
      else {
        const metrics = recorder();
        if (metrics) for (const [name, args] of message.calls) (metrics[name] as (...a: unknown[]) => void)(...args);
      }
    });
    worker.on("error", (err) => log().error({ err, worker: index + 1 }, "a pipeline worker failed"));
    exited[index] = new Promise((resolve) =>
      worker.once("exit", (code) => {
        workers[index] = null;
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
      for (const worker of workers) worker?.postMessage({ type: "wake" } satisfies ToWorker);
    });
  };
  pipelineWaker().on("wake", onWake);

  await ready;
  return {
    // Not ready while any worker has not claimed for a while (or has never claimed yet).
    lastPass: () => (passes.some((at) => at === null) ? null : Math.min(...(passes as number[]))),
    listening: (listeningOn: number) => {
      port = listeningOn;
      for (const worker of workers) worker?.postMessage({ type: "listening", port } satisfies ToWorker);
    },
    stop: async () => {
      stopping = true;
      pipelineWaker().off("wake", onWake);
      for (const worker of workers) worker?.postMessage({ type: "stop" } satisfies ToWorker);
      await Promise.all(exited);
    },
  };
}
