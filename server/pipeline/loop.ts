import type { Database } from "../db/client.ts";
import { log } from "../lib/log.ts";
import { runPipeline, workerId } from "./run-pipeline.ts";
import { pipelineWaker } from "./wake.ts";

/** While idle the loop polls this often; new work in this process wakes it at once. */
export const IDLE_POLL_MS = 250;
/** After a pass that found nothing, wake-ups wait this long: a stream of them costs a few claims a second, not one each. */
export const MIN_IDLE_MS = 20;

/**
 * The inline pipeline of `npm start` (PIPELINE=inline): passes of one second's budget, back to
 * back while there is work, then a wait for a wake-up or the next poll. `stop` lets the pass
 * in flight finish (its jobs complete or are rescheduled; none is left leased).
 */
export function startPipelineLoop(database: Database): { stop: () => Promise<void>; lastPass: () => number | null } {
  const owner = workerId();
  let running = true;
  let lastPass: number | null = null; // when a pass last completed, for /readyz (D52)
  let wake: (() => void) | null = null;
  const onWake = () => wake?.();
  pipelineWaker().on("wake", onWake);
  const done = (async () => {
    while (running) {
      try {
        const counts = await runPipeline(database, { owner, budgetMs: 1_000 });
        lastPass = Date.now();
        if (counts.claimed > 0) continue;
      } catch (err) {
        log().error({ err }, "pipeline pass failed");
      }
      if (!running) break;
      const idleSince = Date.now();
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, IDLE_POLL_MS);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = null;
      const rest = MIN_IDLE_MS - (Date.now() - idleSince);
      if (running && rest > 0) await new Promise((resolve) => setTimeout(resolve, rest));
    }
  })();
  return {
    lastPass: () => lastPass,
    stop: async () => {
      running = false;
      wake?.();
      pipelineWaker().off("wake", onWake);
      await done;
    },
  };
}
