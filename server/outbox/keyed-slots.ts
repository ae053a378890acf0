/**
 * How many waiting entries, per slot of a key, make the worker's claims leave that key's jobs
 * in the outbox: enough that a freed slot never waits for a claim (a claim only once the queue
 * was empty drained a backlog far slower: docs/webhooks.md), few enough that a slow party's
 * backlog stays in the outbox.
 */
export const WAITING_PER_SLOT = 4;

/**
 * One worker's jobs in flight per key (a webhook endpoint, a channel): at most `max` of a key
 * at once; those started past it wait here, in order, still leased by their claim (the worker
 * renews them), and each slot that frees goes to the next at once. So one slow party holds at
 * most its own slots of the worker's (WORKER_SLOTS), and everything else always has the rest
 * (D49). A claim leaves alone the jobs of every key whose queue is full (`full`), so they stay
 * in the outbox untouched until there is room, and no job counts an attempt for waiting.
 * `reopened` is called when a full queue has room again: the worker claims then, or that
 * key's backlog in the outbox would wait for the next poll. `T` is what the worker needs to
 * start one.
 */
export function keyedSlots<T>(reopened: () => void = () => {}) {
  const inFlight = new Map<string, number>();
  const waiting = new Map<string, T[]>();
  /** Each key's cap, as its last admission said. */
  const caps = new Map<string, number>();
  const cap = (key: string) => caps.get(key) ?? 1;
  return {
    /** True: start it now, counted in flight; false: it waits for a slot (`release`). */
    admit(key: string, entry: T, max: number): boolean {
      caps.set(key, max);
      const busy = inFlight.get(key) ?? 0;
      if (busy < max && !waiting.has(key)) {
        inFlight.set(key, busy + 1);
        return true;
      }
      const queue = waiting.get(key);
      if (queue) queue.push(entry);
      else waiting.set(key, [entry]);
      return false;
    },
    /** A job of the key ended: the waiting entry its slot passes to, if any. */
    release(key: string): T | undefined {
      const queue = waiting.get(key);
      const next = queue?.shift();
      if (queue?.length === 0) waiting.delete(key);
      if (next !== undefined && queue!.length === WAITING_PER_SLOT * cap(key) - 1) reopened();
      if (next !== undefined) return next;
      const busy = inFlight.get(key) ?? 1;
      if (busy > 1) inFlight.set(key, busy - 1);
      else {
        inFlight.delete(key);
        caps.delete(key);
      }
      return undefined;
    },
    /** Every entry waiting now. */
    waiting: (): T[] => [...waiting.values()].flat(),
    /** Takes every waiting entry out (the worker stops: they go back to the outbox). */
    withdraw(): T[] {
      const all = [...waiting.values()].flat();
      waiting.clear();
      return all;
    },
    /** The keys whose queue is full: the worker's next claim leaves their jobs alone. */
    full: (): string[] => [...waiting].filter(([key, queue]) => queue.length >= WAITING_PER_SLOT * cap(key)).map(([key]) => key),
  };
}
