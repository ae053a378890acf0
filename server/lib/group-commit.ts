import DataLoader from "dataloader";

/**
 * Group commit: the first call goes out alone at once; calls that arrive while `inFlight`
 * batches are in flight (one unless said) wait for one to end, then go out together as the
 * next batch (at most `maxBatchSize`). Under load each round trip carries everything that
 * arrived during the previous one, and alone a call waits for nothing. `write` answers each
 * key in order, a value or an Error for that key alone. If it throws and `alone(error)` says so
 * (a fault of one key's data, say, not an unreachable database), each key of the batch is
 * written again on its own, so the fault stays with its key; otherwise every key gets the error.
 */
export function groupCommit<K, V>(
  write: (keys: readonly K[]) => Promise<(V | Error)[]>,
  {
    maxBatchSize = 500,
    alone = () => false,
    inFlight = 1,
  }: { maxBatchSize?: number; alone?: (error: unknown) => boolean; inFlight?: number } = {},
): (key: K) => Promise<V> {
  let busy = 0; // batches sent or about to be
  const waiting: (() => void)[] = [];
  const next = () => {
    const run = waiting.shift();
    if (run) run();
    else busy--;
  };
  const loader = new DataLoader<K, V, K>(
    async (keys) => {
      try {
        return await writeOrEach(keys, write, alone);
      } finally {
        next();
      }
    },
    {
      cache: false,
      maxBatchSize,
      // DataLoader fills a batch until this calls back. Room for one more batch: on the next
      // tick (the calls of this tick join it). Otherwise: when a batch in flight ends.
      batchScheduleFn: (run) => {
        if (busy >= inFlight) waiting.push(run);
        else {
          busy++;
          process.nextTick(run);
        }
      },
    },
  );
  return (key) => loader.load(key);
}

/**
 * `write(keys)`, each key's value or Error; if it throws and `alone(error)` says so, each key is
 * written again on its own, so the fault stays with its key. Otherwise it throws.
 */
export async function writeOrEach<K, V>(
  keys: readonly K[],
  write: (keys: readonly K[]) => Promise<(V | Error)[]>,
  alone: (error: unknown) => boolean,
): Promise<(V | Error)[]> {
  return write(keys).catch(async (err: unknown) => {
    if (keys.length === 1 || !alone(err)) throw err;
    const each: (V | Error)[] = [];
    for (const key of keys)
      each.push(
        await write([key]).then(
          ([v]) => v!,
          (e: Error) => e,
        ),
      );
    return each;
  });
}

/**
 * A `groupCommit` for each owner (a database, a transaction's handle), made on its first call:
 * calls through one owner share statements, never with another owner's.
 */
export function groupCommitEach<O extends object, K, V>(
  write: (owner: O, keys: readonly K[]) => Promise<(V | Error)[]>,
  options?: Parameters<typeof groupCommit>[1],
): (owner: O, key: K) => Promise<V> {
  const writers = new WeakMap<O, (key: K) => Promise<V>>();
  return (owner, key) => {
    let writer = writers.get(owner);
    if (!writer) writers.set(owner, (writer = groupCommit<K, V>((keys) => write(owner, keys), options)));
    return writer(key);
  };
}
