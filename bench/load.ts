import autocannon from "autocannon";

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
