import { runtime } from "../lib/runtime.ts";

// D52: the counters the pipeline and the HTTP server move, and what `/metrics` serves. This
// module holds only the hooks; prom-client is loaded by the server (metrics-registry.ts), so
// the CLI and Next's bundles never load it, and a hook of a process without it does nothing.
// One recorder per process (server/lib/runtime.ts), which Next's route handlers move too.

export type Recorder = {
  request(route: string, method: string, status: number, seconds: number): void;
  providerCall(provider: string, outcome: string): void;
  webhookDelivery(outcome: string): void;
  statusChange(status: string): void;
};

declare module "../lib/runtime.ts" {
  interface Runtime {
    /** Set by the server's registry; none in the CLI. */
    metrics?: Recorder;
  }
}

export function setRecorder(recorder: Recorder): void {
  runtime().metrics = recorder;
}

export function recorder(): Recorder | undefined {
  return runtime().metrics;
}

/**
 * A route label with few values: API paths (`/api/v1/<resource>/<id>/<action>/<id>`) with
 * their ids replaced by `{id}`, the other
 * front doors by their prefix, dashboard pages as `page`. Never a query string (D54).
 */
export function routeLabel(url: string): string {
  const path = url.split("?")[0] ?? "/";
  if (path === "/api/v1" || path.startsWith("/api/v1/")) {
    return (
      path
        .split("/")
        .map((s, i) => (i >= 4 && i % 2 === 0 && s ? "{id}" : s))
        .join("/")
        .replace(/\/$/, "") || "/api/v1"
    );
  }
  for (const prefix of ["/api/trpc", "/api/auth", "/api/cron", "/api/providers", "/_next", "/docs"]) {
    if (path === prefix || path.startsWith(`${prefix}/`)) return prefix;
  }
  if (path === "/healthz" || path === "/readyz" || path === "/metrics") return path;
  return "page";
}
