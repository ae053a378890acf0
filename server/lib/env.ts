import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join, resolve } from "node:path";
import proxyaddr from "proxy-addr";
import { z } from "zod";

// The environment is read and validated once, here (operations.md "Configuration").
const ZEnv = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATABASE_URL: z.string().min(1).optional(),
  DATA_DIR: z.string().min(1).default("./.data"),
  APP_URL: z.url().optional(),
  AUTH_SECRET: z.string().min(16).optional(),
  CRON_SECRET: z.string().min(1).optional(),
  PIPELINE: z.enum(["inline", "off"]).default("inline"),
  ALLOW_PRIVATE_WEBHOOKS: z.enum(["0", "1", ""]).optional(),
  METRICS_TOKEN: z.string().min(1).optional(),
  INBOUND_SMTP_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  // D85: `host` or `host:port` (an IPv6 address in brackets when it has a port), comma-separated.
  DNS_SERVERS: z
    .string()
    .regex(/^\s*[^,\s]+\s*(,\s*[^,\s]+\s*)*$/, "a comma-separated list of host or host:port")
    .optional(),
  // D85: host names (`host` or `host:port`), comma-separated, that replace the default list.
  SNS_CERT_HOSTS: z
    .string()
    .regex(/^\s*[^,\s]+\s*(,\s*[^,\s]+\s*)*$/, "a comma-separated list of host or host:port")
    .optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  PIPELINE_WORKERS: z.coerce
    .number()
    .int()
    .min(0)
    .max(64)
    // The API keeps a core of its own (docs/pipeline.md, "Running it"); 0 runs the pipeline in
    // the server's thread.
    .default(() => Math.max(1, availableParallelism() - 1)),
  PIPELINE_LISTEN_URL: z.string().min(1).optional(),
  PIPELINE_LEASE_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  IDEMPOTENCY_CLAIM_SECONDS: z.coerce.number().int().min(1).max(60).default(60),
  WEBHOOK_TIMEOUT_SECONDS: z.coerce.number().min(0.1).max(60).default(10),
  SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().min(1).max(600).default(30),
  PROVIDER_SETTLE_SECONDS: z.coerce
    .number()
    .min(1)
    .max(7 * 86_400)
    .default(900),
  WEBHOOK_RETRY_SCHEDULE: z
    .string()
    .regex(/^\d+(\.\d+)?(,\d+(\.\d+)?)*$/, "a comma-separated list of seconds")
    .default("10,60,300,1800,7200,21600,43200,86400"),
  // At least 3 days: an event must outlive the retries of its webhook deliveries (about 45 hours, D33).
  RETENTION_DAYS: z.coerce.number().int().min(3).max(36500).default(90),
  RETENTION_BATCH_ROWS: z.coerce.number().int().min(1).max(100_000).default(5_000),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(2).max(200).default(20),
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((value, ctx) => {
      const trust = trustedProxies(value);
      if (trust) return trust;
      ctx.addIssue({ code: "custom", message: "a number of proxy hops, or a comma-separated list of addresses and CIDR ranges" });
      return z.NEVER;
    }),
});

export type Env = {
  port: number;
  databaseUrl: string | undefined;
  dataDir: string;
  appUrl: string;
  authSecret: string;
  cronSecret: string | undefined;
  pipeline: "inline" | "off";
  /**
   * With the inline pipeline on PostgreSQL, how many worker threads run it beside the API
   * (default: the cores but one, at least 1); 0 runs it in the server's own thread, as the
   * embedded store always does (docs/pipeline.md "Running it").
   */
  pipelineWorkers: number;
  allowPrivateWebhooks: boolean;
  logLevel: z.infer<typeof ZEnv>["LOG_LEVEL"];
  /** Bearer token for `/metrics` from other addresses than loopback (D52). */
  metricsToken: string | undefined;
  /** D73: the port of the SMTP listener for bounce and complaint reports; undefined: no listener. */
  inboundSmtpPort: number | undefined;
  /** D74/D85: the resolvers of the DNS checks of e-mail domains; empty: the system's. */
  dnsServers: string[];
  /** D73/D85: hosts an SNS signing certificate or subscribe URL may be on; null: SNS's own (`sns.<region>.amazonaws.com`). */
  snsCertHosts: string[] | null;
  /**
   * Where the inline pipeline LISTENs for new work of other instances: `DATABASE_URL` unless
   * set (a direct address when the service's traffic goes through a transaction pooler);
   * null (`off`, or the embedded store) leaves it to the poll.
   */
  pipelineListenUrl: string | null;
  /** How long a worker holds a claimed job before another may take it (a crashed worker's). */
  pipelineLeaseMs: number;
  /** D46: an unfinished idempotency claim older than this may be taken over (at most 60 s). */
  idempotencyClaimSeconds: number;
  /** A delivery must be answered within this time (D33: 10 s). */
  webhookTimeoutMs: number;
  /** SIGTERM to exit: past it the process exits 1, naming the step it was on (docs/deploy.md). */
  shutdownTimeoutMs: number;
  /**
   * D47: how long a message whose provider call got no answer waits for the provider's own
   * report before it fails as `provider_timeout` (docs/pipeline.md "A call with no answer").
   */
  providerSettleMs: number;
  /** The waits before each retry of a delivery (D33: 10 s … 24 h, nine attempts in all). */
  webhookRetryDelaysMs: number[];
  /** Message history and events older than this many days are deleted by the hourly sweep. */
  retentionDays: number;
  /** Rows deleted by one statement of that sweep, so no statement holds its locks for long. */
  retentionBatchRows: number;
  /**
   * PostgreSQL connections this thread's pool opens at most: `DATABASE_POOL_SIZE` shared
   * evenly by the server's thread and its pipeline workers (requests and an inline pipeline
   * in one thread share its pool). Instances times this, plus one LISTEN connection each, must stay under the
   * server's `max_connections` (100 by default).
   */
  databasePoolSize: number;
  /**
   * Whether the peer at `hop` (0: the socket's, then X-Forwarded-For from the right) is a
   * proxy of ours whose claim of the client's address is believed (lib/client-address.ts).
   */
  trustProxy: (address: string, hop: number) => boolean;
};

let cached: Env | undefined;

export function env(): Env {
  if (cached) return cached;
  const parsed = ZEnv.safeParse(emptyToUndefined(process.env));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`Invalid configuration ${String(issue?.path.join("."))}: ${issue?.message}`);
  }
  const e = parsed.data;
  const dataDir = resolve(e.DATA_DIR);
  cached = {
    port: e.PORT,
    databaseUrl: e.DATABASE_URL,
    dataDir,
    appUrl: (e.APP_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ""),
    authSecret: e.AUTH_SECRET ?? generatedSecret(dataDir),
    cronSecret: e.CRON_SECRET,
    pipeline: e.PIPELINE,
    pipelineWorkers: e.PIPELINE_WORKERS,
    allowPrivateWebhooks: e.ALLOW_PRIVATE_WEBHOOKS === "1",
    logLevel: e.LOG_LEVEL,
    metricsToken: e.METRICS_TOKEN,
    inboundSmtpPort: e.INBOUND_SMTP_PORT,
    snsCertHosts: e.SNS_CERT_HOSTS ? e.SNS_CERT_HOSTS.split(",").map((s) => s.trim().toLowerCase()) : null,
    dnsServers: e.DNS_SERVERS ? e.DNS_SERVERS.split(",").map((s) => s.trim()) : [],
    pipelineListenUrl: e.PIPELINE_LISTEN_URL === "off" ? null : (e.PIPELINE_LISTEN_URL ?? e.DATABASE_URL ?? null),
    pipelineLeaseMs: e.PIPELINE_LEASE_SECONDS * 1000,
    idempotencyClaimSeconds: e.IDEMPOTENCY_CLAIM_SECONDS,
    webhookTimeoutMs: e.WEBHOOK_TIMEOUT_SECONDS * 1000,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_SECONDS * 1000,
    providerSettleMs: e.PROVIDER_SETTLE_SECONDS * 1000,
    webhookRetryDelaysMs: e.WEBHOOK_RETRY_SCHEDULE.split(",").map((s) => Number(s) * 1000),
    retentionDays: e.RETENTION_DAYS,
    retentionBatchRows: e.RETENTION_BATCH_ROWS,
    // The instance's connections are shared out: with the pipeline in worker threads, the
    // server's thread and each worker open at most an even share (docs/deploy.md).
    databasePoolSize: Math.max(
      2,
      Math.ceil(e.DATABASE_POOL_SIZE / (e.PIPELINE === "inline" && e.DATABASE_URL ? 1 + e.PIPELINE_WORKERS : 1)),
    ),
    trustProxy: e.TRUST_PROXY,
  };
  return cached;
}

/** Lets the server fix the port it really listens on (PORT=0 in tests). */
export function setListeningPort(port: number): void {
  const e = env();
  if (!process.env.APP_URL) e.appUrl = `http://localhost:${port}`;
  e.port = port;
}

/**
 * TRUST_PROXY: unset trusts no proxy; a number trusts that many hops in front of the server;
 * otherwise a list of addresses or CIDR ranges (proxy-addr also knows `loopback`,
 * `linklocal`, `uniquelocal`). Null when the value is none of these.
 */
function trustedProxies(value: string | undefined): ((address: string, hop: number) => boolean) | null {
  if (value === undefined) return () => false;
  if (/^\d+$/.test(value.trim())) {
    const hops = Number(value);
    return (_address, hop) => hop < hops;
  }
  const list = value.split(",").map((s) => s.trim());
  if (list.some((s) => s === "")) return null;
  try {
    return proxyaddr.compile(list);
  } catch {
    return null;
  }
}

function emptyToUndefined(source: NodeJS.ProcessEnv): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(source)) out[k] = v === "" ? undefined : v;
  return out;
}

/** AUTH_SECRET unset: generate one and keep it under DATA_DIR so sessions survive restarts. */
function generatedSecret(dataDir: string): string {
  const file = join(dataDir, "auth-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString("base64url");
  writeFileSync(file, secret, { mode: 0o600, flag: "wx" });
  return secret;
}
