import { EventEmitter } from "node:events";
import pg from "pg";
import { log } from "../lib/log.ts";
import { runtime } from "../lib/runtime.ts";

// New outbox work wakes a pipeline loop at once instead of at its next poll:
// - in this process, through its one emitter (server/lib/runtime.ts), which the dashboard's
//   route handlers emit on too;
// - on PostgreSQL, across instances too: the statement that inserts jobs that are due and that
//   no claim holds calls `pg_notify` on `JOBS_CHANNEL` itself, on the writer's connection inside
//   its transaction (server/outbox/jobs.ts, the jobs' one INSERT; D87: no trigger), so it is
//   delivered at commit and only if the transaction commits, once per transaction; every
//   instance's loop LISTENs for it (`listenForWork`). The embedded store (PGlite) serves one
//   process's instance: its in-process wake is the emitter above.

export const JOBS_CHANNEL = "svc_jobs";

declare module "../lib/runtime.ts" {
  interface Runtime {
    /** New outbox work wakes this process's pipeline loop. */
    wake?: EventEmitter;
  }
}

export function pipelineWaker(): EventEmitter {
  const shared = runtime();
  shared.wake ??= new EventEmitter();
  return shared.wake;
}

export function wakePipeline(): void {
  pipelineWaker().emit("wake");
}

/** The longest wait before a lost LISTEN connection is opened again. */
const MAX_RECONNECT_MS = 5_000;

/**
 * Keeps one connection LISTENing on `JOBS_CHANNEL` and wakes this process's loop on each
 * notification. A dropped connection (a database restart) is opened again with backoff; work
 * committed meanwhile is found by the loop's poll, so nothing waits on a notification.
 */
export function listenForWork(connectionString: string): { stop: () => Promise<void> } {
  let stopped = false;
  let client: pg.Client | null = null;
  let retry: NodeJS.Timeout | null = null;
  let wait = 250;
  const connect = async () => {
    const current = new pg.Client({ connectionString });
    client = current;
    current.on("notification", () => wakePipeline());
    current.on("error", (err) => {
      log().warn({ err }, "the pipeline's LISTEN connection failed; it is opened again");
      reopen(current);
    });
    current.on("end", () => reopen(current));
    try {
      await current.connect();
      await current.query(`LISTEN ${JOBS_CHANNEL}`);
      wait = 250;
      wakePipeline(); // work committed while no connection listened
    } catch (err) {
      log().warn({ err }, "the pipeline could not LISTEN for new work; it polls meanwhile");
      reopen(current);
    }
  };
  const reopen = (broken: pg.Client) => {
    if (stopped || client !== broken || retry) return;
    client = null;
    broken.end().catch(() => {});
    retry = setTimeout(() => {
      retry = null;
      void connect();
    }, wait);
    wait = Math.min(wait * 2, MAX_RECONNECT_MS);
  };
  void connect();
  return {
    stop: async () => {
      stopped = true;
      if (retry) clearTimeout(retry);
      const current = client;
      client = null;
      await current?.end().catch(() => {});
    },
  };
}
