import type * as OtelApi from "@opentelemetry/api";
import { log } from "../lib/log.ts";
import { runtime } from "../lib/runtime.ts";

// OpenTelemetry traces (D54), exported over OTLP/HTTP when OTEL_EXPORTER_OTLP_ENDPOINT is set.
// Unset, nothing is loaded and every helper here only runs its function. Spans: one per
// request (continuing an incoming `traceparent`), one per pipeline job (continuing the
// traceparent stored with the job by the request or job that created it), and one per
// provider or webhook call, whose traceparent goes out on the HTTP request. One tracer per
// process (server/lib/runtime.ts), which the dashboard's route handlers use too.

export type Tracing = { api: typeof OtelApi; tracer: OtelApi.Tracer; shutdown: () => Promise<void> };
export type SpanKind = "server" | "client" | "consumer" | "internal";
export type ActiveSpan = {
  /** The span's own W3C traceparent (null when tracing is off). */
  traceparent: string | null;
  set: (attributes: Record<string, string | number | boolean | undefined>) => void;
  fail: (message: string) => void;
};

declare module "../lib/runtime.ts" {
  interface Runtime {
    /** Set when OTEL_EXPORTER_OTLP_ENDPOINT is. */
    tracing?: Tracing;
  }
}

const NONE: ActiveSpan = { traceparent: null, set: () => {}, fail: () => {} };

export function tracingEnabled(): boolean {
  return runtime().tracing !== undefined;
}

/** Starts the SDK when OTEL_EXPORTER_OTLP_ENDPOINT is set (loads its modules only then). */
export async function startTracing(serviceName = "svc"): Promise<void> {
  if (runtime().tracing || !process.env.OTEL_EXPORTER_OTLP_ENDPOINT) return;
  const [api, { NodeSDK }, { OTLPTraceExporter }] = await Promise.all([
    import("@opentelemetry/api"),
    import("@opentelemetry/sdk-node"),
    import("@opentelemetry/exporter-trace-otlp-http"),
  ]);
  // The exporter reads OTEL_EXPORTER_OTLP_ENDPOINT (adding /v1/traces) and the other
  // OTEL_EXPORTER_OTLP_* settings itself; no automatic instrumentation, only the spans below.
  const sdk = new NodeSDK({
    serviceName: process.env.OTEL_SERVICE_NAME ?? serviceName,
    traceExporter: new OTLPTraceExporter(),
    instrumentations: [],
  });
  sdk.start();
  runtime().tracing = { api, tracer: api.trace.getTracer("svc"), shutdown: () => sdk.shutdown() };
  log().info({ endpoint: process.env.OTEL_EXPORTER_OTLP_ENDPOINT }, "tracing: exporting spans over OTLP/HTTP");
}

/** Flushes spans not yet exported (at shutdown). */
export async function stopTracing(): Promise<void> {
  const t = runtime().tracing;
  if (!t) return;
  runtime().tracing = undefined;
  await t.shutdown().catch((err: unknown) => log().warn({ err }, "tracing: could not flush spans"));
}

/**
 * Runs `fn` inside a new span: the child of `parent` (a W3C traceparent) when given, else of
 * the active span. The span ends when `fn` settles; a thrown error marks it failed.
 */
export async function inSpan<T>(
  name: string,
  opts: { kind: SpanKind; parent?: string | null; attributes?: Record<string, string | number | boolean | undefined> },
  fn: (span: ActiveSpan) => Promise<T>,
): Promise<T> {
  const t = runtime().tracing;
  if (!t) return fn(NONE);
  const { api } = t;
  const parentContext = opts.parent ? api.propagation.extract(api.ROOT_CONTEXT, { traceparent: opts.parent }) : api.context.active();
  const kind = {
    server: api.SpanKind.SERVER,
    client: api.SpanKind.CLIENT,
    consumer: api.SpanKind.CONSUMER,
    internal: api.SpanKind.INTERNAL,
  }[opts.kind];
  const span = t.tracer.startSpan(name, { kind, attributes: clean(opts.attributes) }, parentContext);
  const context = api.trace.setSpan(parentContext, span);
  const carrier: Record<string, string> = {};
  api.propagation.inject(context, carrier);
  const active: ActiveSpan = {
    traceparent: carrier.traceparent ?? null,
    set: (attributes) => span.setAttributes(clean(attributes)),
    fail: (message) => span.setStatus({ code: api.SpanStatusCode.ERROR, message }),
  };
  try {
    return await api.context.with(context, () => fn(active));
  } catch (err) {
    active.fail(err instanceof Error ? err.message : String(err));
    throw err;
  } finally {
    span.end();
  }
}

/** The traceparent of the active span, for an outgoing HTTP call; null when tracing is off. */
export function activeTraceparent(): string | null {
  const t = runtime().tracing;
  if (!t) return null;
  const carrier: Record<string, string> = {};
  t.api.propagation.inject(t.api.context.active(), carrier);
  return carrier.traceparent ?? null;
}

function clean(attributes: Record<string, string | number | boolean | undefined> = {}): OtelApi.Attributes {
  return Object.fromEntries(Object.entries(attributes).filter(([, v]) => v !== undefined)) as OtelApi.Attributes;
}
