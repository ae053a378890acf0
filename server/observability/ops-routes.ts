import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Database } from "../db/client.ts";
import { clientAddress } from "../lib/client-address.ts";
import { env } from "../lib/env.ts";
import { readinessProbe } from "./health.ts";

// D52: the operator's endpoints, answered by the server before Next: `/healthz` (the process
// runs; no database call), `/readyz` and `/metrics` (Prometheus text). What they tell about the
// installation (the metrics, the readiness checks and their errors) is for the operator only:
// callers on loopback, or elsewhere with `Authorization: Bearer $METRICS_TOKEN` (issue 30).

const LOOPBACK = new Set(["127.0.0.1", "::1"]);

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "Content-Type": "application/json", "Cache-Control": "no-store" });
  res.end(JSON.stringify(body));
}

/**
 * The operator: a caller on loopback, or one with the metrics token. The client's address, not
 * the socket's: behind a proxy on this host every request comes from loopback.
 */
function isOperator(req: IncomingMessage): boolean {
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
      // A load balancer elsewhere reads the status; only the operator reads why.
      json(res, result.ok ? 200 : 503, isOperator(req) ? result : { ok: result.ok });
      return true;
    }
    if (path === "/metrics") {
      if (!isOperator(req)) {
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
