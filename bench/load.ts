import autocannon from "autocannon";
import { Agent, request } from "undici";

export type LoadResult = { rps: number; p50: number; p99: number; non2xx: number; errors: number; total: number };

/** An autocannon run; a short warm-up first when `warmupSeconds` > 0. */
export async function load(opts: {
  url: string;
  connections?: number;
  seconds: number;
  warmupSeconds?: number;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  overallRate?: number;
  setupRequest?: (req: { headers?: Record<string, string>; body?: string }) => { headers?: Record<string, string>; body?: string };
}): Promise<LoadResult> {
  const base = {
    url: opts.url,
    connections: opts.connections ?? 50,
    method: opts.method ?? "GET",
    headers: opts.headers,
    body: opts.body,
    overallRate: opts.overallRate,
    requests: opts.setupRequest ? [{ setupRequest: opts.setupRequest }] : undefined,
  };
  if (opts.warmupSeconds) await autocannon({ ...base, duration: opts.warmupSeconds } as autocannon.Options);
  const r = await autocannon({ ...base, duration: opts.seconds } as autocannon.Options);
  return {
    rps: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors,
    total: r.requests.total,
  };
}

export type Arrival = "even" | "bursts";

/**
 * Offers `rate` POSTs a second for `seconds`, whatever the answers (open loop): "even" sends
 * one every 1000/rate ms; "bursts" is autocannon's `overallRate`, which sends each second's
 * share as fast as its connections allow at the start of the second, then waits.
 */
export async function offer(opts: {
  url: string;
  headers: Record<string, string>;
  rate: number;
  seconds: number;
  body: (i: number) => string;
  arrival: Arrival;
}): Promise<{ total: number; non2xx: number }> {
  if (opts.arrival === "bursts") {
    let i = 0;
    const r = await load({
      url: opts.url,
      method: "POST",
      seconds: opts.seconds,
      headers: opts.headers,
      overallRate: opts.rate,
      setupRequest: (req) => ({ ...req, body: opts.body(i++) }),
    });
    return { total: r.total, non2xx: r.non2xx };
  }
  const dispatcher = new Agent({ connections: 50 });
  const started = performance.now();
  const total = opts.rate * opts.seconds;
  const answers: Promise<number>[] = [];
  try {
    for (let i = 0; i < total; i++) {
      const wait = started + (i * 1000) / opts.rate - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      answers.push(
        request(opts.url, { method: "POST", headers: opts.headers, body: opts.body(i), dispatcher }).then(
          async (res) => (await res.body.dump(), res.statusCode),
          () => 0,
        ),
      );
    }
    const statuses = await Promise.all(answers);
    return { total, non2xx: statuses.filter((s) => s < 200 || s > 299).length };
  } finally {
    await dispatcher.close();
  }
}
