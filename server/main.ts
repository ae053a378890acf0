import "./lib/source-maps.ts"; // first: before Next and Prisma load
import "./lib/heap.ts";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { join, resolve } from "node:path";
import next from "next";
import { API_PREFIX, errorBody, handleRest, type RequestFacts } from "./api/rest.ts";
import { closeDb, db, type Database } from "./db/client.ts";
import { applyMigrations } from "./db/apply-migrations.ts";
import { pendingMigrations } from "./db/migrations.ts";
import { ensureDemo } from "./demo/ensure-demo.ts";
import { CLIENT_ADDRESS_HEADER, clientAddress } from "./lib/client-address.ts";
import { env, setListeningPort } from "./lib/env.ts";
import { AppError } from "./lib/errors.ts";
import { randomBase62 } from "./lib/ids.ts";
import { endLog, log } from "./lib/log.ts";
import { cappedRequest, refuseBody } from "./lib/read-body.ts";
import { newNonce, NONCE_HEADER, securityHeaders } from "./lib/security-headers.ts";
import { checkSecret, SecretMismatchError } from "./lib/secret-fingerprint.ts";
import { recorder, routeLabel } from "./observability/metrics.ts";
import { opsRoutes } from "./observability/ops-routes.ts";
import { redactUrl } from "./observability/redact.ts";
import { withCause } from "./observability/request-context.ts";
import { inSpan, startTracing, stopTracing } from "./observability/tracing.ts";
import { startTableUpkeep } from "./db/table-upkeep.ts";
import { startPipelineLoop } from "./pipeline/loop.ts";
import { startPipelineWorkers } from "./pipeline/workers.ts";
import { closeSmtpTransports } from "./providers/smtp.ts";
import { startBounceListener } from "./inbound/bounce-listener.ts";

// One process, two front doors (ARCHITECTURE.md): /api/v1/* goes straight to the REST
// facade; everything else (dashboard, /api/trpc, /api/auth, /docs) goes to Next.

const root = resolve(process.env.SVC_ROOT ?? process.cwd()); // npm start sets it; the bundle runs from node_modules/.cache
const dev = process.argv.includes("--dev");
const config = env();
const logger = log();
await startTracing(); // D54: only when OTEL_EXPORTER_OTLP_ENDPOINT is set

// Pending migrations are applied here, each in one transaction with its bookkeeping row, so a
// kill at any moment of a first start or an upgrade leaves a database the next start opens
// (server/db/apply-migrations.ts, docs/deploy.md "Upgrading"). A database that has every
// migration of this build (a restart) is checked with one query.
const progress = (text: string) => process.stdout.write(`svc: ${text}…\n`); // first run: say what happens
async function openMigrated(): Promise<Database> {
  const creating = !config.databaseUrl && !existsSync(join(config.dataDir, "pglite"));
  progress(
    config.databaseUrl ? "connecting to PostgreSQL" : `${creating ? "creating" : "opening"} the embedded store in ${config.dataDir}`,
  );
  const database = await db();
  if ((await pendingMigrations(database, root)).length === 0) return database;
  progress("applying database migrations");
  const applied = await applyMigrations(database.migrationTarget, {
    say: (line) => process.stdout.write(`svc: ${line}\n`),
    applied: (name) => logger.debug({ migration: name }, "migration applied"),
  });
  if (applied.length) logger.info({ applied }, "migrations applied");
  return database;
}
const database = await openMigrated();
try {
  await checkSecret(database); // D53: a wrong secret stops the start, naming the fix
} catch (err) {
  if (!(err instanceof SecretMismatchError)) throw err;
  process.stderr.write(`svc cannot start: ${err.message}\n`);
  await closeDb();
  process.exit(1);
}
const demo = await ensureDemo(database); // before serving the embedded store: no other process creates it meanwhile
await database.serve?.(); // D53: the CLI and other local processes share the embedded store
// What autovacuum does, where none runs (the embedded store, or PostgreSQL with it off).
const upkeep = await startTableUpkeep(database);

// The inline pipeline: beside the API in worker threads on PostgreSQL; in this thread with
// PIPELINE_WORKERS=0, and on the embedded store, which only this process may open (D53).
const pipelineThreads = config.pipeline === "inline" && database.engine === "postgres" ? config.pipelineWorkers : 0;
// The workers start while the dashboard loads; the server listens once they run.
const workersStarting = config.pipeline === "inline" && pipelineThreads > 0 ? startPipelineWorkers(root, pipelineThreads) : null;
const pipelineStarting = config.pipeline !== "inline" ? null : (workersStarting ?? Promise.resolve(startPipelineLoop(database)));
let pipeline: Awaited<typeof pipelineStarting> = null;
// D73: bounce and complaint reports by e-mail, when a port is configured.
const bounces = config.inboundSmtpPort === undefined ? null : await startBounceListener(database, config.inboundSmtpPort);
const ops = await opsRoutes({ database, root, lastPass: pipelineStarting ? () => pipeline?.lastPass() ?? null : null }); // D52

progress("starting the dashboard");
const nextApp = next({ dev, dir: root, quiet: true });
await nextApp.prepare();
const nextHandler = nextApp.getRequestHandler();
pipeline = await pipelineStarting;

function isApiPath(url: string): boolean {
  return url === API_PREFIX || url.startsWith(`${API_PREFIX}/`) || url.startsWith(`${API_PREFIX}?`);
}

const REQUEST_ID = /^[\w.:-]{8,128}$/;

/**
 * The most a request handed to Next may send (D51): next-auth's forms are small; the
 * dashboard's tRPC calls, the provider callbacks and everything else stay within 1 MiB (route
 * handlers may cap lower). Refused before Next reads a byte.
 */
const AUTH_BODY_BYTES = 16 * 1024;
const DASHBOARD_BODY_BYTES = 1024 * 1024;
const bodyCap = (url: string) => (/^\/api\/auth(\/|\?|$)/.test(url) ? AUTH_BODY_BYTES : DASHBOARD_BODY_BYTES);

function refuseLargeBody(req: IncomingMessage, res: ServerResponse, max: number): void {
  const err = new AppError("request_too_large", `The request body is larger than ${max / 1024} KiB.`);
  refuseBody(req, res, err.status, errorBody(err, config.appUrl));
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = req.url ?? "/"; // as received: the REST facade rewrites req.url for its handler
  const incoming = req.headers["request-id"];
  const requestId = typeof incoming === "string" && REQUEST_ID.test(incoming) ? incoming : `req_${randomBase62(20)}`;
  res.setHeader("Request-Id", requestId);
  // D54: the request's span continues an incoming W3C traceparent; what the request causes
  // (events, jobs, their webhook deliveries) carries its id and trace on.
  const parent = req.headers.traceparent;
  const attributes = { "http.request.method": req.method, "url.path": redactUrl(url.split("?")[0]!), "svc.request_id": requestId };
  await inSpan(
    `${req.method ?? "GET"} ${routeLabel(url)}`,
    { kind: "server", parent: typeof parent === "string" ? parent : null, attributes },
    (span) =>
      withCause({ requestId, traceparent: span.traceparent }, async () => {
        res.once("finish", () => span.set({ "http.response.status_code": res.statusCode }));
        await serve(req, res, url, requestId);
      }),
  );
}

async function serve(req: IncomingMessage, res: ServerResponse, url: string, requestId: string): Promise<void> {
  const started = process.hrtime.bigint();
  const facts: RequestFacts = {};
  res.once("finish", () => {
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    recorder()?.request(routeLabel(url), req.method ?? "GET", res.statusCode, ms / 1000);
    // D54: no personal data (phone numbers, e-mail addresses) from the URL; who called, and the error code.
    logger.info(
      { requestId, method: req.method, url: redactUrl(url), status: res.statusCode, ms: Math.round(ms * 10) / 10, ...facts },
      "request",
    );
  });
  if (await ops(req, res, url.split("?")[0]!)) return;
  if (isApiPath(url)) {
    await handleRest(req, res, { database, appUrl: config.appUrl, requestId, log: logger, facts });
    return;
  }
  const nonce = newNonce();
  const headers = securityHeaders({ appUrl: config.appUrl, dev, nonce });
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  const capped = await cappedRequest(req, bodyCap(url));
  if (!capped) return refuseLargeBody(req, res, bodyCap(url));
  capped.headers["request-id"] = requestId; // the dashboard's route handlers log with the same id
  capped.headers[CLIENT_ADDRESS_HEADER] = clientAddress(req); // never the client's own claim
  // The response's nonce for Next's scripts and the layout's, never one the client sent.
  capped.headers["content-security-policy"] = headers["Content-Security-Policy"];
  capped.headers[NONCE_HEADER] = nonce;
  await nextHandler(capped, res);
}

const server = createServer((req, res) => {
  handle(req, res).catch((err: unknown) => {
    logger.error({ err }, "unhandled request error");
    if (!res.headersSent) res.writeHead(500, { "Content-Type": "application/json" });
    res.end();
  });
});
server.keepAliveTimeout = 65_000;

await new Promise<void>((resolve) => server.listen(config.port, resolve));
const address = server.address();
const port = typeof address === "object" && address ? address.port : config.port;
setListeningPort(port);
(await workersStarting)?.listening(port);

logger.info({ port, engine: database.engine, pipeline: config.pipeline, workers: pipelineThreads, dev }, "listening");
// The sign-in and keys come last, once the service answers, so no log line scrolls them away.
await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => {});
printBanner(port);

let stopping = false;
/** What the shutdown is waiting on, named in the log line of a shutdown that ran past its deadline. */
let stoppingStage = "";
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, "shutting down: no new connections, finishing requests in flight");
  // The whole shutdown has a deadline: a step that never ends (a database that stopped answering
  // mid-query, a provider call that hangs) would otherwise keep the process alive after SIGTERM,
  // holding its port and its connections until a supervisor's SIGKILL, or forever without one.
  // Jobs cut off here are leased: another instance takes them over when their lease ends.
  setTimeout(() => {
    logger.error({ stage: stoppingStage, timeoutMs: config.shutdownTimeoutMs }, "shutdown did not finish in time: exiting");
    void endLog(1_000).finally(() => process.exit(1));
  }, config.shutdownTimeoutMs).unref();
  const step = async (stage: string, work: () => unknown) => {
    stoppingStage = stage;
    await work();
  };
  await step("finishing requests in flight", async () => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    const deadline = setTimeout(() => server.closeAllConnections(), 10_000);
    await closed;
    clearTimeout(deadline);
  });
  await step("stopping the pipeline", () => pipeline?.stop());
  await step("closing the bounce mailbox", () => bounces?.close());
  await step("finishing the table upkeep", () => upkeep());
  closeSmtpTransports();
  await step("closing the dashboard", () => nextApp.close?.());
  await step("closing the database", () => closeDb());
  await step("flushing traces", () => stopTracing());
  logger.info("stopped");
  await endLog(2_000); // before exit: pino's exit hook retried a broken pipe's write forever
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
// Whoever read the output is gone (the pipe to the terminal or supervisor broke): stop as on
// SIGTERM. Left running, each log line failed with EPIPE and the report of that failure failed
// again, a loop that held a core (seen on a server whose parent process had died).
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (err: NodeJS.ErrnoException) => {
    if (err.code === "EPIPE") void shutdown("EPIPE");
  });
}

/** D54: the first start's demo sign-in and keys, kept where only this user can read them. */
function writeCredentials(demo: Awaited<ReturnType<typeof ensureDemo>>): string {
  const file = join(config.dataDir, "credentials.txt");
  const text = [
    `Demo workspace: ${demo.workspace}`,
    `Dashboard: ${config.appUrl}/  sign in as ${demo.email} / ${demo.password}`,
    `Test key: ${demo.testKey}`,
    `Live key: ${demo.liveKey}`,
    "",
  ].join("\n");
  mkdirSync(config.dataDir, { recursive: true });
  writeFileSync(file, text, { mode: 0o600 });
  return file;
}

function printBanner(listening: number): void {
  const lines = [
    "",
    `  svc is listening on http://localhost:${listening} (${database.engine === "pglite" ? `embedded store in ${config.dataDir}` : "PostgreSQL"})`,
    `  Dashboard: ${config.appUrl}/  API: ${config.appUrl}${API_PREFIX}  Docs: ${config.appUrl}/docs`,
  ];
  if (demo.created) {
    const file = writeCredentials(demo);
    lines.push(
      `  Demo workspace ${demo.workspace} created. Sign in as ${demo.email} / ${demo.password}`,
      `  Test key: ${demo.testKey}`,
      `  Live key: ${demo.liveKey}`,
      `  (shown once: keys are stored only as hashes; also written to ${file})`,
    );
  } else {
    lines.push(
      `  Demo workspace ${demo.workspace}; sign in as ${demo.email} (first start's password and keys: ${join(config.dataDir, "credentials.txt")};`,
      `  a new password: npx svc user reset-password --workspace ${demo.workspace} --email ${demo.email})`,
    );
  }
  process.stdout.write(`${lines.join("\n")}\n\n`);
}
