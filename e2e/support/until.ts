/**
 * Polls `read` every 100 ms until `ok` holds for its value, and returns that value; past
 * `timeoutMs` it fails with the last value read. `poller(ms)` makes one with another default.
 */
export function poller(defaultTimeoutMs: number) {
  return async function until<T>(read: () => T | Promise<T>, ok: (v: T) => boolean, timeoutMs = defaultTimeoutMs): Promise<T> {
    const value = await poll(read, ok, timeoutMs, 100);
    if (!ok(value)) throw new Error(`condition not met in ${timeoutMs} ms: ${JSON.stringify(value).slice(0, 1500)}`);
    return value;
  };
}

/**
 * Polls `read` every `everyMs` until `done` holds for its value or `timeoutMs` have passed, and
 * returns the last value read (the caller's assertion then shows it). Time is read on the
 * monotonic clock: a step of the system's clock neither ends the wait early nor prolongs it.
 */
export async function poll<T>(read: () => T | Promise<T>, done: (v: T) => boolean, timeoutMs: number, everyMs = 50): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || performance.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

export const until = poller(20_000);

/**
 * Waits until the server's pipeline is not behind: no due job has waited `withinMs` or more
 * (its /metrics, `svc_oldest_due_job_age_seconds`). A test that holds a due job to a deadline
 * starts from here: the claim takes due jobs oldest first (D76), so work due before it, left
 * by another test sharing the server, is worked through first however punctual the claim is.
 */
export async function pipelineCaughtUp(baseUrl: string, withinMs = 250, timeoutMs = 60_000): Promise<void> {
  const age = async () => {
    const text = await (await fetch(`${baseUrl}/metrics`)).text();
    const line = text.split("\n").find((l) => l.startsWith("svc_oldest_due_job_age_seconds "));
    if (!line) throw new Error("the server's /metrics has no svc_oldest_due_job_age_seconds");
    return Number(line.split(" ")[1]) * 1000;
  };
  const last = await poll(age, (ms) => ms < withinMs, timeoutMs, 100);
  if (last >= withinMs) throw new Error(`the pipeline was still ${Math.round(last)} ms behind after ${timeoutMs} ms`);
}
