import "../lib/source-maps.ts"; // first: before Prisma loads
import { setTimeout as sleep } from "node:timers/promises";
import { parentPort } from "node:worker_threads";
import { closeDb, db } from "../db/client.ts";
import { setListeningPort } from "../lib/env.ts";
import { log } from "../lib/log.ts";
import { setRecorder, type Recorder } from "../observability/metrics.ts";
import { startTracing, stopTracing } from "../observability/tracing.ts";
import { wakePipeline } from "../outbox/wake.ts";
import { closeSmtpTransports } from "../providers/smtp.ts";
import { startPipelineLoop } from "./loop.ts";
import type { FromWorker, MetricCall, ToWorker } from "./workers.ts";

// One pipeline worker of `npm start` (PIPELINE=inline, PIPELINE_WORKERS >= 1, PostgreSQL;
// docs/pipeline.md "Running it"): the inline loop in a worker thread of the server, with a
// database pool, a logger and a tracer of its own. What only the server has reaches it, or
// goes back, as messages (./workers.ts): the server's wake-ups come in; the metrics this loop
// moves and when it last claimed go out, to the server's /metrics and /readyz.

const port = parentPort;
if (!port) throw new Error("server/pipeline/worker-main.ts runs as a worker thread of the server");
const send = (message: FromWorker) => port.postMessage(message);

await startTracing(); // D54: its jobs' spans, exported from this thread

// D52: this thread's counters are the server's. The calls of one turn of the event loop go
// in one message.
let calls: MetricCall[] = [];
const flush = () => {
  send({ type: "metrics", calls });
  calls = [];
};
const forward =
  (name: MetricCall[0]) =>
  (...args: unknown[]) => {
    if (calls.length === 0) setImmediate(flush);
    calls.push([name, args] as MetricCall);
  };
const recorder: Recorder = {
  request: forward("request"),
  providerCall: forward("providerCall"),
  webhookDelivery: forward("webhookDelivery"),
  statusChange: forward("statusChange"),
};
setRecorder(recorder);

let stopping = false;
const database = await db();
// The server hands this thread the jobs it writes while the thread has room (./workers.ts):
// it is told when that changes, and what a hand-off leases.
const loop = startPipelineLoop(database, { onRoom: (room) => send({ type: "room", room }) });
send({ type: "leases", worker: loop.worker.id, ...loop.worker.leases });

port.on("message", (message: ToWorker) => {
  if (message.type === "wake") wakePipeline();
  else if (message.type === "adopt") adopt(message);
  else if (message.type === "listening") setListeningPort(message.port);
  else if (message.type === "stop") void stop();
});

/**
 * Starts jobs the server wrote leased to this thread, with the pacing it reserved for them.
 * Their cover's monotonic time is the server thread's: it comes as wall-clock time and is read
 * on this thread's clock. Once the loop stops they are not started: they wait for their lease.
 */
function adopt({ jobs, owner, prepared }: Extract<ToWorker, { type: "adopt" }>): void {
  if (stopping) return;
  const here = jobs.map((job) => (job.cover ? { ...job, cover: { ...job.cover, at: job.cover.at - performance.timeOrigin } } : job));
  loop.worker.adopt(here, owner, new Map(prepared.map(([channelId, reservation]) => [channelId, Promise.resolve(reservation)])));
}
// /readyz (D52) reads when this loop last claimed; told once a second, and with `ready` after
// its first pass, so the server listens ready. A database that does not answer yet holds that
// for FIRST_PASS_WAIT_MS at most: the server then listens and /readyz says why it is not ready.
const FIRST_PASS_WAIT_MS = 5_000;
for (const until = Date.now() + FIRST_PASS_WAIT_MS; loop.lastPass() === null && Date.now() < until;) await sleep(10);
const passes = setInterval(() => send({ type: "pass", at: loop.lastPass() }), 1_000);
send({ type: "ready", at: loop.lastPass() });

async function stop(): Promise<void> {
  stopping = true;
  clearInterval(passes);
  await loop.stop(); // the jobs in flight finish: each completes or is rescheduled
  closeSmtpTransports();
  await closeDb();
  await stopTracing();
  if (calls.length) flush();
  log().flush?.();
  port!.close(); // nothing left to run: the thread ends
}
