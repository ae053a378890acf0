import DataLoader from "dataloader";

/**
 * Group commit: the first call goes out alone at once; calls that arrive while a batch is in
 * flight wait for it to end, then go out together as the next batch (at most `maxBatchSize`).
 * One batch is in flight at a time, so under load each round trip carries everything that
 * arrived during the previous one, and alone a call waits for nothing. `write` answers each
 * key in order, a value or an Error for that key alone; if it throws, every key of the batch
 * gets the error.
 */
export function groupCommit<K, V>(write: (keys: readonly K[]) => Promise<(V | Error)[]>, maxBatchSize = 500): (key: K) => Promise<V> {
  let busy = false;
  const waiting: (() => void)[] = [];
  const next = () => {
    const run = waiting.shift();
    if (run) run();
    else busy = false;
  };
  const loader = new DataLoader<K, V, K>(
    async (keys) => {
      try {
        return await write(keys);
      } finally {
        next();
      }
    },
    {
      cache: false,
      maxBatchSize,
      // DataLoader fills a batch until this calls back. Idle: on the next tick (the calls of
      // this tick join it). Busy: when the batch in flight ends.
      batchScheduleFn: (run) => {
        if (busy) waiting.push(run);
        else {
          busy = true;
          process.nextTick(run);
        }
      },
    },
  );
  return (key) => loader.load(key);
}
