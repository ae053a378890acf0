import type { Database } from "../db/client.ts";
import { env } from "../lib/env.ts";
import { log } from "../lib/log.ts";
import { listenForWork, pipelineWaker } from "../outbox/wake.ts";
import { setAdopter } from "../outbox/handoff.ts";
import { pipelineWorker, type PipelineOptions, type PipelineWorker } from "./run-pipeline.ts";

/** While idle the loop polls this often; new work wakes it at once (in this process, and from any instance on PostgreSQL). */
export const IDLE_POLL_MS = 250;
/** How long a stop waits for jobs in flight before it names them in the log. */
const STOP_PATIENCE_MS = 10_000;
/** After a pass that found nothing, wake-ups wait this long: a stream of them costs a few claims a second, not one each. */
export const MIN_IDLE_MS = 20;

/**
 * The inline pipeline of `npm start` (PIPELINE=inline): one worker for the life of the
 * process that claims again as soon as it has room, while there is work; jobs run in their own
 * slots, so one slow endpoint or provider never holds up the next claim (D49). Idle, it waits
 * for a wake-up or the next poll. `stop` lets the jobs in flight finish (each completes or is
 * rescheduled; none is left leased).
 */
export function startPipelineLoop(
  database: Database,
  opts: Pick<PipelineOptions, "onRoom"> = {},
): { worker: PipelineWorker; stop: () => Promise<void>; lastPass: () => number | null } {
  const worker = pipelineWorker(database, opts);
  let running = true;
  let lastPass: number | null = null; // when the loop last claimed (or waited for a slot), for /readyz (D52)
  let wake: (() => void) | null = null;
  // Whether a wake-up came since the last claim began. Work that commits while a claim runs may
  // be newer than the claim's snapshot: a claim that found nothing then claims again instead
  // of sleeping until the next wake-up or poll (measured: bursts of 100 due jobs left waiting
  // a whole poll).
  let woken = false;
  const onWake = () => {
    woken = true;
    wake?.();
  };
  pipelineWaker().on("wake", onWake);
  setAdopter(worker); // jobs this process writes start here at once (`Handoff`)
  const listenUrl = database.engine === "postgres" ? env().pipelineListenUrl : null;
  const listener = listenUrl ? listenForWork(listenUrl) : null;
  const done = (async () => {
    while (running) {
      try {
        if (!worker.hasRoom()) {
          await Promise.race([worker.slotFreed(), new Promise<void>((resolve) => (wake = resolve))]);
          wake = null;
          lastPass = Date.now();
          continue;
        }
        woken = false;
        const claimed = await worker.claim();
        lastPass = Date.now();
        if (claimed > 0) continue;
      } catch (err) {
        log().error({ err }, "pipeline claim failed");
      }
      if (!running) break;
      const idleSince = Date.now();
      if (!woken) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, IDLE_POLL_MS);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        wake = null;
      }
      const rest = MIN_IDLE_MS - (Date.now() - idleSince);
      if (running && rest > 0) await new Promise((resolve) => setTimeout(resolve, rest));
    }
    await worker.drained();
  })();
  return {
    worker,
    lastPass: () => lastPass,
    stop: async () => {
      running = false;
      setAdopter(null);
      wake?.();
      pipelineWaker().off("wake", onWake);
      await listener?.stop();
      // Jobs in flight end within their own timeouts; if the stop still waits after a while,
      // the log names them (a shutdown cut off by its deadline says only where it waited).
      const waiting = setTimeout(
        () => log().warn({ jobs: worker.inFlight() }, "stopping: the pipeline still waits for jobs in flight"),
        STOP_PATIENCE_MS,
      ).unref();
      await done;
      clearTimeout(waiting);
    },
  };
}
