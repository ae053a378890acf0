import type { EventEmitter } from "node:events";
import pino from "pino";
import { env } from "./env.ts";
import { runtime } from "./runtime.ts";

declare module "./runtime.ts" {
  interface Runtime {
    log?: pino.Logger;
  }
}

// Structured JSON logs (pino). Each request logs with its request id (server/main.ts). One
// logger per process (server/lib/runtime.ts).
export function log(): pino.Logger {
  const shared = runtime();
  shared.log ??= pino({ level: env().logLevel, base: { svc: "svc" } });
  return shared.log;
}

/** pino's destination on a file descriptor (sonic-boom), as far as ending it goes. */
type Destination = EventEmitter & { end?: () => void; destroy?: () => void; destroyed?: boolean };

/**
 * Ends the log before the process exits: waits, at most `ms`, until the lines written so far
 * have left the process and the destination is closed; past that, the rest is dropped. Left to
 * pino's exit hook, what was still buffered is written synchronously at `process.exit`, and
 * that write retries every failure, a broken pipe's too: `npm start | cat` stopped by a
 * SIGTERM to its process group (cat gone first) stopped serving and then never exited.
 */
export async function endLog(ms: number): Promise<void> {
  const logger = runtime().log as (pino.Logger & { [pino.symbols.streamSym]?: Destination }) | undefined;
  const stream = logger?.[pino.symbols.streamSym];
  if (!stream || typeof stream.end !== "function" || stream.destroyed) return;
  // After a broken pipe pino made the destination a no-op, by methods of its own: nothing to wait for.
  if (Object.hasOwn(stream, "end")) return;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(finish, ms);
    function finish() {
      clearTimeout(timer);
      stream!.off("close", finish).off("error", finish);
      resolve();
    }
    // A pipe that breaks meanwhile: pino makes the destination a no-op (no close will come).
    stream.once("close", finish).once("error", finish);
    stream.end!();
  });
  if (!stream.destroyed) stream.destroy?.(); // a reader that stopped reading: what it did not take is dropped
}
