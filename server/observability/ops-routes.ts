import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Database } from "../db/client.ts";
import { clientAddress } from "../lib/client-address.ts";
import { env } from "../lib/env.ts";
import { readinessProbe } from "./health.ts";

// D52: the operator's endpoints, answered by the server before Next: `/healthz` (the process
// runs; no database call), `/readyz` (its checks) and `/metrics` (Prometheus text, open on
// loopback, elsewhere with `Authorization: Bearer $METRICS_TOKEN`).

const LOOPBACK = new Set(["127.0.0.1", "::1"]);

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "Content-Type": "application/json", "Cache-Control": "no-store" });
  res.end(JSON.stringify(body));
}

function mayScrape(req: IncomingMessage): boolean {
  // The client's address, not the socket's: behind a proxy on this host every request comes
  // from loopback.
  if (LOOPBACK.has(clientAddress(req))) return true;
  const token = env().metricsToken;
  const given = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
  if (!token || !given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

export async function opsRoutes(opts: {
  database: Database;
  root: string;
  lastPass: (() => number | null) | null;
}): Promise<(req: IncomingMessage, res: ServerResponse, path: string) => Promise<boolean>> {
  const ready = readinessProbe(opts.database, opts.root, opts.lastPass);
  const { createMetrics } = await import("./metrics-registry.ts");
  const metrics = createMetrics(opts.database);
  return async (req, res, path) => {
    if (req.method !== "GET" && req.method !== "HEAD") return false;
    if (path === "/healthz") {
      json(res, 200, { ok: true });
      return true;
    }
    if (path === "/readyz") {
      const result = await ready();
      json(res, result.ok ? 200 : 503, result);
      return true;
    }
    if (path === "/metrics") {
      if (!mayScrape(req)) {
        json(res, 401, { error: "GET /metrics from this address needs Authorization: Bearer <METRICS_TOKEN>." });
        return true;
      }
      const text = await metrics.text();
      res.writeHead(200, { "Content-Type": metrics.contentType, "Cache-Control": "no-store" });
      res.end(text);
      return true;
    }
    return false;
  };
}
