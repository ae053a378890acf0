import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { bundled } from "../../scripts/lib/bundle.mjs";
import { applyMigrations, readMigrations } from "../../server/db/apply-migrations.ts";
import { PG_ADMIN_URL, queryDatabase, type Engine } from "../support/database.ts";
import { ROOT, SERVER_FLAGS, SHORT_PROCESS_FLAGS, startServer } from "../support/server.ts";
import { poll } from "../support/until.ts";

// Issue 47: a SIGKILL at any moment of a first start or of an upgrade from the previous release
// leaves a database the next plain start opens, with every object written before intact. Each
// kill lands at a moment read from the server's own progress (its output, the store's files),
// never after a fixed sleep; each is followed by a plain start that must come up.

/** The previous release's last migration: its database has no events, no webhook scopes, no `waiting_at`. */
const PREVIOUS = "20261126110000_count_live_messages";
const all = readMigrations().migrationDirectories.map((d) => d.path);
const upgrade = all.filter((name) => name > PREVIOUS);

const AUTH_SECRET = "kill-test-secret-0123456789abcdef";
const key = (mode: string, tail: string) => `svc_${mode}_${tail.padEnd(40, "0")}`;
const ALL_KEY = key("live", "legacyAllScopes");
const CHOSEN_KEY = key("live", "legacyChosenScopes");
const sha = (s: string) => createHash("sha256").update(s).digest("hex");
// What the previous release's "all scopes" gave a key: every scope it knew.
const PREVIOUS_SCOPES = [
  "messages:send",
  "messages:read",
  "contacts:write",
  "contacts:read",
  "flows:enroll",
  "flows:read",
  "tags:write",
  "tags:read",
  "fields:write",
  "fields:read",
];

// Every kind of object the previous release kept, as it wrote them: a workspace, a contact, a
// message, a flow whose run waits in its `wait` at steps.1 (position already on steps.2, no
// waiting_at: that release's way), a key with all scopes and one with chosen scopes, a webhook
// endpoint with its secret.
const LEGACY = `
  INSERT INTO workspaces (id, name, created_at) VALUES ('legacy-ws', 'Legacy', now() - interval '30 days');
  INSERT INTO api_keys (id, workspace_id, name, mode, hash, prefix, last_four, scopes, created_at) VALUES
    ('key_legacyall', 'legacy-ws', 'All', 'live', '${sha(ALL_KEY)}', 'svc_live_', '${ALL_KEY.slice(-4)}',
     ARRAY[${PREVIOUS_SCOPES.map((s) => `'${s}'`).join(", ")}], now() - interval '20 days'),
    ('key_legacychosen', 'legacy-ws', 'Chosen', 'live', '${sha(CHOSEN_KEY)}', 'svc_live_', '${CHOSEN_KEY.slice(-4)}',
     ARRAY['contacts:read', 'flows:read'], now() - interval '20 days');
  INSERT INTO contacts (id, workspace_id, email, email_key, name, fields) VALUES
    ('ct_legacy', 'legacy-ws', 'Ana@Example.com', 'ana@example.com', 'Ana', '{"plan": "gold"}');
  INSERT INTO messages (id, workspace_id, mode, channel, contact_id, "to", status, content, sent_at) VALUES
    ('msg_legacy', 'legacy-ws', 'live', 'email', 'ct_legacy', 'Ana@Example.com', 'sent',
     '{"subject": "Hello", "html": "<p>Hi</p>"}', now() - interval '1 day');
  INSERT INTO flows (id, workspace_id, name, status, version) VALUES ('flow_legacy', 'legacy-ws', 'Welcome', 'active', 1);
  INSERT INTO flow_versions (flow_id, version, steps) VALUES ('flow_legacy', 1, '[
    {"type": "send", "channel": "email", "email": {"subject": "Welcome", "html": "<p>Hi</p>"}},
    {"type": "wait", "duration": "P3D"},
    {"type": "send", "channel": "email", "email": {"subject": "Still there?", "html": "<p>Hi</p>"}}]');
  INSERT INTO flow_runs (id, workspace_id, flow_id, version, contact_id, mode, status, position, next_step_at) VALUES
    ('run_legacy', 'legacy-ws', 'flow_legacy', 1, 'ct_legacy', 'live', 'active', '[2]', now() + interval '2 days');
  INSERT INTO flow_run_history (run_id, at, kind, position, detail) VALUES
    ('run_legacy', now() - interval '1 day', 'entered', NULL, '{"version": 1}'),
    ('run_legacy', now() - interval '1 day', 'step', '[0]', '{"type": "send", "message_id": "msg_legacy"}'),
    ('run_legacy', now() - interval '1 day', 'waiting', '[1]', '{"until": "2099-01-01T00:00:00.000Z"}');
  INSERT INTO webhook_endpoints (id, workspace_id, url, events) VALUES
    ('we_legacy', 'legacy-ws', 'https://hooks.example.com/svc', ARRAY['message.sent']);
  INSERT INTO webhook_secrets (endpoint_id, secret) VALUES ('we_legacy', 'whsec_bGVnYWN5c2VjcmV0bGVnYWN5c2VjcmV0');`;

const cleanup: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const f of cleanup.reverse()) await f();
});

type Target = { env: Record<string, string | undefined> };

async function adminQuery(sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

function pgUrl(name: string): string {
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** The previous release's database with LEGACY written in it, built once per engine. */
async function previousRelease(engine: Engine): Promise<string> {
  if (engine === "pglite") {
    const dir = mkdtempSync(join(tmpdir(), "svc-previous-"));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const { PGlite } = await import("@electric-sql/pglite");
    const client = await PGlite.create(join(dir, "pglite"));
    await applyMigrations({ pglite: client }, { through: PREVIOUS });
    await client.exec(LEGACY);
    await client.close();
    return join(dir, "pglite");
  }
  const name = `svc_previous_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 6)}`;
  await adminQuery(`CREATE DATABASE "${name}"`);
  cleanup.push(() => adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
  await applyMigrations({ pg: { connectionString: pgUrl(name) } }, { through: PREVIOUS });
  const client = new pg.Client({ connectionString: pgUrl(name) });
  await client.connect();
  await client.query(LEGACY);
  await client.end();
  return name;
}

/** A database of its own for one kill: empty (a first start) or a copy of the previous release. */
async function target(engine: Engine, from: string | null): Promise<Target> {
  const dataDir = mkdtempSync(join(tmpdir(), "svc-kill-"));
  cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
  if (engine === "pglite") {
    if (from) cpSync(from, join(dataDir, "pglite"), { recursive: true });
    return { env: { DATA_DIR: dataDir, DATABASE_URL: undefined, AUTH_SECRET } };
  }
  const name = `svc_kill_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 6)}`;
  await adminQuery(`CREATE DATABASE "${name}"${from ? ` TEMPLATE "${from}"` : ""}`);
  cleanup.push(() => adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
  return { env: { DATA_DIR: dataDir, DATABASE_URL: pgUrl(name), AUTH_SECRET } };
}

/** A moment of a start, read from its output so far and its DATA_DIR. */
type Moment = { label: string; reached: (out: string, dataDir: string) => boolean };

const applied = (out: string) => out.split('"migration applied"').length - 1;
const line = (text: string): Moment => ({ label: `on "${text}"`, reached: (out) => out.includes(text) });
const afterMigrations = (n: number): Moment => ({ label: `after ${n} migrations applied`, reached: (out) => applied(out) >= n });
/** PGlite writing the new store beside its place (the first start's initdb). */
const storeBeingWritten: Moment = {
  label: "while the new store is written",
  reached: (_, dataDir) =>
    existsSync(dataDir) && readdirSync(dataDir).some((d) => d.startsWith(".pglite-creating-") && existsSync(join(dataDir, d, "base"))),
};

/**
 * Starts the server and SIGKILLs it at `moment`; fails if it was listening first (the moment
 * was missed, so the test would not test it). Answers the output up to the kill.
 */
async function killAt(env: Record<string, string | undefined>, moment: Moment): Promise<string> {
  const child = spawn(process.execPath, [...SERVER_FLAGS, ...SHORT_PROCESS_FLAGS, await bundled(ROOT, "server/main.ts", "server")], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1", PORT: "0", PIPELINE: "off", LOG_LEVEL: "debug", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let exited = false;
  child.stdout.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr.on("data", (d: Buffer) => (out += d.toString()));
  child.once("exit", () => (exited = true));
  const check = () => {
    if (!exited && moment.reached(out, env.DATA_DIR!)) child.kill("SIGKILL");
  };
  child.stdout.on("data", check);
  const timer = setInterval(check, 5); // the store's files appear without a line of output
  try {
    await poll(
      () => exited,
      (done) => done,
      240_000,
      20,
    );
  } finally {
    clearInterval(timer);
    if (!exited) child.kill("SIGKILL");
  }
  expect(child.signalCode, `the server ended before the moment ${moment.label}:\n${out}`).toBe("SIGKILL");
  expect(out).not.toContain("svc is listening");
  return out;
}

/** The plain start after a kill: it comes up, with every migration applied once and none left unfinished. */
async function plainStart(env: Record<string, string | undefined>, check: (url: string) => Promise<void>): Promise<void> {
  const server = await startServer(env);
  try {
    await check(server.url);
    // Read while the server runs: on the embedded store through its socket, not by opening the store again.
    const rows = await queryDatabase(
      env,
      `SELECT migration_name AS name, finished_at IS NOT NULL AS finished, rolled_back_at IS NOT NULL AS rolled_back FROM _prisma_migrations ORDER BY migration_name`,
    );
    expect(rows.filter((r) => !r.rolled_back)).toEqual(all.map((name) => ({ name, finished: true, rolled_back: false })));
  } finally {
    await server.stop();
  }
}

async function api(url: string, bearer: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${url}/api/v1${path}`, {
    method,
    headers: { Authorization: `Bearer ${bearer}`, ...(body ? { "Content-Type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> & unknown[] };
}

/** Every object the previous release wrote, read back through the API of this one. */
async function legacyIntact(url: string): Promise<void> {
  const contact = await api(url, ALL_KEY, "GET", "/contacts/ct_legacy");
  expect(contact).toMatchObject({
    status: 200,
    body: { id: "ct_legacy", email: "Ana@Example.com", name: "Ana", fields: { plan: "gold" } },
  });
  expect(await api(url, ALL_KEY, "GET", "/messages/msg_legacy")).toMatchObject({ status: 200, body: { id: "msg_legacy", status: "sent" } });
  // The old "all scopes" key reaches endpoints this release added (events, webhook endpoints)...
  const endpoints = await api(url, ALL_KEY, "GET", "/webhook-endpoints");
  expect(endpoints.status).toBe(200);
  expect((endpoints.body as { id: string; url: string }[]).map((e) => [e.id, e.url])).toEqual([
    ["we_legacy", "https://hooks.example.com/svc"],
  ]);
  expect((await api(url, ALL_KEY, "GET", "/events?contact_id=ct_legacy")).status).toBe(200);
  // ...a key with chosen scopes keeps exactly those.
  expect(await api(url, CHOSEN_KEY, "GET", "/contacts/ct_legacy")).toMatchObject({ status: 200 });
  expect(await api(url, CHOSEN_KEY, "GET", "/webhook-endpoints")).toMatchObject({
    status: 403,
    body: { error: { code: "missing_scope" } },
  });
  // The run that waited before the upgrade is in its wait (steps.1), by GET /runs and the statistics (D82, D83).
  expect(await api(url, ALL_KEY, "GET", "/runs/run_legacy")).toMatchObject({
    status: 200,
    body: { status: "active", current_step: { path: "steps.1" } },
  });
  const stats = await api(url, ALL_KEY, "GET", "/flows/flow_legacy/stats");
  const steps = (stats.body.versions as { version: number; steps: { path: string; waiting: number }[] }[])[0]!.steps;
  expect(steps.map((s) => [s.path, s.waiting])).toEqual([
    ["steps.0", 0],
    ["steps.1", 1],
    ["steps.2", 0],
  ]);
}

/** The demo workspace of a first start answers with its own key after the restart. */
async function firstStartIntact(env: Record<string, string | undefined>): Promise<(url: string) => Promise<void>> {
  return async (url) => {
    const health = await fetch(`${url}/readyz`);
    expect(health.status).toBe(200);
    const workspaces = await queryDatabase(env, `SELECT count(*)::int AS n FROM workspaces`);
    expect(workspaces[0]!.n).toBeGreaterThanOrEqual(1);
  };
}

// 20 moments. PGlite applies migrations slowly (each cycle's plain start applies what the kill
// left, up to all of them), so its first start gets the moments that differ on it: while the
// store itself is written, and after the first and the last migrations.
const firstStartMoments: Record<Engine, Moment[]> = {
  pglite: [storeBeingWritten, afterMigrations(1), afterMigrations(all.length - 1)],
  postgres: [
    line("svc: connecting to PostgreSQL"),
    afterMigrations(1),
    afterMigrations(Math.floor(all.length / 3)),
    afterMigrations(Math.floor((2 * all.length) / 3)),
    afterMigrations(all.length - 1),
    line("svc: starting the dashboard"),
  ],
};
const upgradeMoments = (engine: Engine): Moment[] => [
  line("svc: applying database migrations"),
  afterMigrations(1),
  afterMigrations(Math.floor(upgrade.length / 2)),
  afterMigrations(upgrade.length - 1),
  line("svc: starting the dashboard"),
  ...(engine === "postgres" ? [afterMigrations(upgrade.length - 2)] : []),
];

describe.each<Engine>(["pglite", "postgres"])("a kill during a start on %s", (engine) => {
  it.each(firstStartMoments[engine].map((m) => [m.label, m] as const))(
    "first start, killed %s: the next start comes up",
    async (_, moment) => {
      const { env } = await target(engine, null);
      await killAt(env, moment);
      await plainStart(env, await firstStartIntact(env));
    },
    300_000,
  );

  let previous: Promise<string> | undefined;
  it.each(upgradeMoments(engine).map((m) => [m.label, m] as const))(
    "upgrade from the previous release, killed %s: the next start comes up with every object intact",
    async (_, moment) => {
      previous ??= previousRelease(engine);
      const { env } = await target(engine, await previous);
      await killAt(env, moment);
      await plainStart(env, legacyIntact);
    },
    300_000,
  );
});
