import { AsyncLocalStorage } from "node:async_hooks";
import { EventEmitter } from "node:events";
import type pino from "pino";
import type { Database } from "../db/client.ts";
import type { Recorder } from "../observability/metrics.ts";
import type { Cause } from "../observability/request-context.ts";
import type { Tracing } from "../observability/tracing.ts";
import type { Adopter } from "../outbox/handoff.ts";

// What one process shares, in one object: the database handle, the logger, the metrics
// recorder, the tracer, the request context, the pipeline's wake-ups and its hand-off worker.
// Each part is read through its own module (`db()`, `log()`, `recorder()`, `inSpan()`,
// `currentCause()`, `wakePipeline()`, `Handoff.take()`), never from here directly. A part is
// made on first use, so the CLI, the unit tests and a Next route get what they use without
// server/main.ts; the server's main module sets the parts only it has (the recorder in
// `opsRoutes`, the hand-off worker in `startPipelineLoop`, the tracer in `startTracing`).

/** The process's shared parts (see above); each is read and set only by the module named. */
export type Runtime = {
  /** server/db/client.ts: the one database handle, opened on first use (PGlite allows one opener per directory). */
  database?: Promise<Database>;
  /** server/lib/log.ts. */
  log?: pino.Logger;
  /** server/observability/metrics.ts: set by the server's registry; none in the CLI. */
  metrics?: Recorder;
  /** server/observability/tracing.ts: set when OTEL_EXPORTER_OTLP_ENDPOINT is. */
  tracing?: Tracing;
  /** server/observability/request-context.ts: the request or job that causes the work in progress. */
  causes: AsyncLocalStorage<Cause>;
  /** server/outbox/wake.ts: new outbox work wakes this process's pipeline loop. */
  wake: EventEmitter;
  /** server/outbox/handoff.ts: the pipeline worker that starts jobs this process writes, while it runs. */
  adopter: Adopter | null;
};

const SLOT = Symbol.for("svc.runtime");

/** This process's shared parts. */
export function runtime(): Runtime {
  // globalThis, the one door: Next's bundled route handlers and the server's modules are two module graphs in one process.
  const holder = globalThis as { [SLOT]?: Runtime };
  return (holder[SLOT] ??= { causes: new AsyncLocalStorage<Cause>(), wake: new EventEmitter(), adopter: null });
}
