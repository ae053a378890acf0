import { AsyncLocalStorage } from "node:async_hooks";
import { runtime } from "../lib/runtime.ts";

// What caused the work in progress (D54): the API request (its Request-Id) and the W3C
// traceparent of the span doing it. Set for each request (server/main.ts) and for each job the
// pipeline runs (from the columns the job was stored with); read where events and jobs are
// written, so webhook deliveries and provider calls carry the request on. One store per
// process (server/lib/runtime.ts), which the dashboard's route handlers read too.

export type Cause = { requestId: string | null; traceparent: string | null };

declare module "../lib/runtime.ts" {
  interface Runtime {
    /** The request or job that causes the work in progress. */
    causes?: AsyncLocalStorage<Cause>;
  }
}

function causes(): AsyncLocalStorage<Cause> {
  const shared = runtime();
  shared.causes ??= new AsyncLocalStorage<Cause>();
  return shared.causes;
}

export function withCause<T>(cause: Cause, fn: () => T): T {
  return causes().run(cause, fn);
}

/** The cause of the current work; nulls outside a request or job (a CLI command, a sweep). */
export function currentCause(): Cause {
  return causes().getStore() ?? { requestId: null, traceparent: null };
}

/** D54: the request (and span) that caused a row, for an event's or a job's columns. */
export function causeColumns(): { requestId: string | null; traceparent: string | null } {
  return currentCause();
}

/** The same two values as statement parameters, in the columns' order (request_id, traceparent). */
export function causeParams(): [string | null, string | null] {
  const cause = currentCause();
  return [cause.requestId, cause.traceparent];
}
