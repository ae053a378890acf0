import client from "prom-client";
import type { Database } from "../db/client.ts";
import { setRecorder } from "./metrics.ts";

// D52's metrics in Prometheus' text format (prom-client). Loaded by the server only. The job
// gauges are read from the outbox when scraped, so every instance reports the shared queue.

export type MetricsRegistry = { contentType: string; text: () => Promise<string> };

export function createMetrics(database: Database): MetricsRegistry {
  const registry = new client.Registry();
  const requests = new client.Counter({
    name: "svc_http_requests_total",
    help: "HTTP requests by route, method and status.",
    labelNames: ["route", "method", "status"],
    registers: [registry],
  });
  const latency = new client.Histogram({
    name: "svc_http_request_duration_seconds",
    help: "HTTP request latency by route, method and status.",
    labelNames: ["route", "method", "status"],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const rateLimited = new client.Counter({
    name: "svc_rate_limited_requests_total",
    help: "Requests refused with 429 by route.",
    labelNames: ["route"],
    registers: [registry],
  });
  const providerCalls = new client.Counter({
    name: "svc_provider_calls_total",
    help: "Calls to a provider (whatsapp, email) by outcome: accepted, temporary, permanent.",
    labelNames: ["provider", "outcome"],
    registers: [registry],
  });
  const deliveries = new client.Counter({
    name: "svc_webhook_deliveries_total",
    help: "Webhook delivery jobs by outcome: delivered, retry, failed, skipped.",
    labelNames: ["outcome"],
    registers: [registry],
  });
  const statusChanges = new client.Counter({
    name: "svc_message_status_changes_total",
    help: "Messages entering a status.",
    labelNames: ["status"],
    registers: [registry],
  });
  const due = new client.Gauge({
    name: "svc_jobs_due",
    help: "Outbox jobs due and not leased, by kind.",
    labelNames: ["kind"],
    registers: [registry],
  });
  const leased = new client.Gauge({
    name: "svc_jobs_leased",
    help: "Outbox jobs leased by a worker, by kind.",
    labelNames: ["kind"],
    registers: [registry],
  });
  const oldest = new client.Gauge({
    name: "svc_oldest_due_job_age_seconds",
    help: "How long the oldest due job has been waiting (0 when none is due).",
    registers: [registry],
  });
  client.collectDefaultMetrics({ register: registry, prefix: "svc_process_" });

  setRecorder({
    request(route, method, status, seconds) {
      const labels = { route, method, status: String(status) };
      requests.inc(labels);
      latency.observe(labels, seconds);
      if (status === 429) rateLimited.inc({ route });
    },
    providerCall: (provider, outcome) => providerCalls.inc({ provider, outcome }),
    webhookDelivery: (outcome) => deliveries.inc({ outcome }),
    statusChange: (status) => statusChanges.inc({ status }),
  });

  async function readJobs(): Promise<void> {
    const rows = await database.query<{ kind: string; due: number; leased: number; oldest: number | null }>(
      `SELECT kind,
         count(*) FILTER (WHERE run_at <= now() AND (lease_until IS NULL OR lease_until < now()))::int AS due,
         count(*) FILTER (WHERE lease_until >= now())::int AS leased,
         extract(epoch FROM now() - min(run_at) FILTER (WHERE run_at <= now() AND (lease_until IS NULL OR lease_until < now())))::float8 AS oldest
       FROM jobs GROUP BY kind`,
    );
    due.reset();
    leased.reset();
    let age = 0;
    for (const r of rows) {
      due.set({ kind: r.kind }, r.due);
      leased.set({ kind: r.kind }, r.leased);
      age = Math.max(age, r.oldest ?? 0);
    }
    oldest.set(age);
  }

  return {
    contentType: registry.contentType,
    async text() {
      // The counters are served even while the database does not answer; the job gauges then
      // keep their last values.
      await readJobs().catch(() => {});
      return registry.metrics();
    },
  };
}
