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

/** Rounds of one measurement as one figure: the mean rate and median, the worse p99. */
export function combined(rs: LoadResult[]): LoadResult {
  const mean = (f: (r: LoadResult) => number) => Math.round(rs.reduce((n, r) => n + f(r), 0) / rs.length);
  const sum = (f: (r: LoadResult) => number) => rs.reduce((n, r) => n + f(r), 0);
  return {
    rps: mean((r) => r.rps),
    p50: mean((r) => r.p50),
    p99: Math.max(...rs.map((r) => r.p99)),
    non2xx: sum((r) => r.non2xx),
    errors: sum((r) => r.errors),
    total: sum((r) => r.total),
  };
}

/**
 * Rounds of two alternatives in turn: a warm-up round of each (unless `warmUp` is false), then
 * four of each in an order that gives both the same mean position in time (ABBA BAAB). On this
 * machine rounds differ by up to 15% from one minute to the next, so figures taken minutes apart
 * could not tell 0.9x from 1.0x.
 */
export async function interleaved<T = LoadResult>(
  a: () => Promise<T>,
  b: () => Promise<T>,
  { warmUp = true } = {},
): Promise<{ a: T[]; b: T[] }> {
  if (warmUp) {
    await a();
    await b();
  }
  const rounds = { a: [] as T[], b: [] as T[] };
  for (const side of ["a", "b", "b", "a", "b", "a", "a", "b"] as const) rounds[side].push(await (side === "a" ? a : b)());
  return rounds;
}

/** The rates of rounds, for a row's note. */
export const roundsNote = (rs: LoadResult[]) => `rounds ${rs.map((r) => Math.round(r.rps)).join(" and ")}/s`;
