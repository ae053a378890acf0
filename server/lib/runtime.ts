// What one process shares, in one object: the database handle, the logger, the metrics
// recorder, the tracer, the request context, the pipeline's wake-ups and its hand-off worker.
// Each part is declared, made on first use and read by its own module (`db()`, `log()`,
// `recorder()`, `inSpan()`, `currentCause()`, `wakePipeline()`, `Handoff.take()`), never
// here: so the CLI, the unit tests and a Next route get what they use without server/main.ts,
// and this file imports none of them (no import circle). The server sets the parts only it
// has: the recorder (`opsRoutes`), the hand-off worker (`startPipelineLoop`), the tracer
// (`startTracing`).

/**
 * The process's shared parts, one field per part, each added by the module that owns it
 * (`declare module "../lib/runtime.ts"`): server/db/client.ts, server/lib/log.ts,
 * server/observability/{metrics,tracing,request-context}.ts, server/outbox/{wake,handoff}.ts.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface Runtime {}

const SLOT = Symbol.for("svc.runtime");

/** This process's shared parts. */
export function runtime(): Runtime {
  // globalThis, the one door: Next's bundled route handlers and the server's modules are two module graphs in one process.
  const holder = globalThis as { [SLOT]?: Runtime };
  return (holder[SLOT] ??= {});
}
