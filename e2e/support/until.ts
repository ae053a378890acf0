/**
 * Polls `read` every 100 ms until `ok` holds for its value, and returns that value; past
 * `timeoutMs` it fails with the last value read. `poller(ms)` makes one with another default.
 */
export function poller(defaultTimeoutMs: number) {
  return async function until<T>(read: () => T | Promise<T>, ok: (v: T) => boolean, timeoutMs = defaultTimeoutMs): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await read();
      if (ok(value)) return value;
      if (Date.now() > deadline) throw new Error(`condition not met in ${timeoutMs} ms: ${JSON.stringify(value).slice(0, 1500)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
}

export const until = poller(20_000);
