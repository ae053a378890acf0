import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { networkInterfaces, tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../support/free-port.ts";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api } from "../support/client.ts";
import { freshDatabase, seedFixtures } from "../support/database.ts";
import type { Fixtures } from "../support/fixtures.ts";
import { startServer, type RunningServer } from "../support/server.ts";
import { svcJson } from "../support/svc.ts";
import { poll } from "../support/until.ts";

// D52: /healthz, /readyz and /metrics of a server and database of this file's own (its counters
// are exact only if no other test file's requests reach that process); then, on a PostgreSQL
// cluster of this test's own, /readyz while the database is down, /metrics and /readyz from
// another address, and the access log of D54 (no phone number or e-mail address; workspace, key and
// error code).

const { engine } = inject("api");
let baseUrl: string;
let fx: Fixtures;
let own: RunningServer;
let ownDatabase: Awaited<ReturnType<typeof freshDatabase>>;

beforeAll(async () => {
  ownDatabase = await freshDatabase(engine, "ops", { migrated: true });
  const env = { ...process.env, ...ownDatabase.env };
  fx = seedFixtures(env);
  own = await startServer({ ...ownDatabase.env, PIPELINE: "inline" });
  baseUrl = own.url;
}, 300_000);

afterAll(async () => {
  await own?.stop();
  await ownDatabase?.drop();
});

async function scrape(base = baseUrl, headers: Record<string, string> = {}): Promise<string> {
  const res = await fetch(`${base}/metrics`, { headers });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
  return res.text();
}

/** The sum of a metric's samples whose labels include all of `labels`. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const line of text.split("\n")) {
    const m = /^([a-z_]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[2] ?? "").matchAll(/(\w+)="([^"]*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) sum += Number(m[3]);
  }
  return sum;
}

const eventually = <T>(read: () => Promise<T>, done: (v: T) => boolean, ms = 15_000): Promise<T> => poll(read, done, ms, 100);

describe("health and metrics (D52)", () => {
  it("/healthz answers 200 {ok:true}", async () => {
    const res = await fetch(`${baseUrl}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
  });

  it("/readyz answers 200 with each check", async () => {
    const res = await fetch(`${baseUrl}/readyz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      ok: true,
      checks: [
        { name: "database", ok: true },
        { name: "migrations", ok: true },
        { name: "pipeline", ok: true },
      ],
    });
  });

  it("/metrics counters move after requests and jobs", async () => {
    const before = await scrape();
    const route = { route: "/api/v1/messages", method: "POST", status: "202" };
    const sent = await api(fx.messages!.keys.test, baseUrl).post("/messages", {
      channel: "whatsapp",
      to: { phone: "+5511988887777" },
      whatsapp: { body: "Hi" },
    });
    expect(sent.status).toBe(202);
    const after = await eventually(
      scrape,
      (t) =>
        sample(t, "svc_message_status_changes_total", { status: "read" }) >
        sample(before, "svc_message_status_changes_total", { status: "read" }),
    );
    expect(sample(after, "svc_http_requests_total", route)).toBe(sample(before, "svc_http_requests_total", route) + 1);
    expect(sample(after, "svc_http_request_duration_seconds_count", route)).toBe(
      sample(before, "svc_http_request_duration_seconds_count", route) + 1,
    );
    for (const status of ["sent", "delivered", "read"]) {
      expect(sample(after, "svc_message_status_changes_total", { status })).toBeGreaterThan(
        sample(before, "svc_message_status_changes_total", { status }),
      );
    }
    for (const name of [
      "svc_jobs_due",
      "svc_jobs_leased",
      "svc_oldest_due_job_age_seconds",
      "svc_rate_limited_requests_total",
      "svc_provider_calls_total",
      "svc_webhook_deliveries_total",
    ]) {
      expect(after).toContain(`# TYPE ${name} `);
    }
    expect(after).not.toContain("5511988887777");
  });

  it("counts rate-limited requests by route", async () => {
    const key = fx.burst!.keys.a!;
    const before = sample(await scrape(), "svc_rate_limited_requests_total", { route: "/api/v1" });
    let limited = 0;
    for (let i = 0; i < 15 && limited === 0; i++) if ((await api(key, baseUrl).get("/")).status === 429) limited++;
    expect(limited).toBe(1);
    expect(sample(await scrape(), "svc_rate_limited_requests_total", { route: "/api/v1" })).toBe(before + 1);
  });
});

// A PostgreSQL cluster of this test's own, so it can be stopped (never the shared one).
const PG_BIN = (() => {
  const versions = readdirSync("/usr/lib/postgresql").sort((a, b) => Number(b) - Number(a));
  return join("/usr/lib/postgresql", versions[0]!, "bin");
})();

function nonLoopbackAddress(): string | undefined {
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) if (a.family === "IPv4" && !a.internal) return a.address;
  }
  return undefined;
}

describe.runIf(engine === "postgres")("on a database of its own", () => {
  let dir: string;
  let pgData: string;
  let server: RunningServer;
  let env: Record<string, string>;
  let restartPg: () => void = () => {};
  let stopPg: () => void = () => {};
  // PostgreSQL refuses to run as root: as root, its tools run as the postgres user.
  const run = (bin: string, ...args: string[]) =>
    process.getuid?.() === 0
      ? execFileSync("runuser", ["-u", "postgres", "--", join(PG_BIN, bin), ...args], { stdio: "ignore" })
      : execFileSync(join(PG_BIN, bin), args, { stdio: "ignore" });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "svc-ops-"));
    execFileSync("chmod", ["777", dir]);
    pgData = join(dir, "pg");
    const port = await freePort();
    run("initdb", "-D", pgData, "-U", "postgres", "--auth=trust", "-E", "UTF8");
    const start = () =>
      run(
        "pg_ctl",
        "-D",
        pgData,
        "-w",
        "-t",
        "120",
        "-o",
        `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`,
        "-l",
        join(dir, "pg.log"),
        "start",
      );
    start();
    restartPg = start;
    stopPg = () => run("pg_ctl", "-D", pgData, "-w", "-t", "120", "-m", "fast", "stop");
    const url = `postgresql://postgres@127.0.0.1:${port}/postgres`;
    env = { DATABASE_URL: url, DATA_DIR: join(dir, "data") };
    server = await startServer(
      { ...env, PIPELINE: "inline", LOG_LEVEL: "info", METRICS_TOKEN: "metrics-token-for-tests" },
      { timeoutMs: 240_000 },
    );
  }, 300_000);

  afterAll(async () => {
    await server?.stop();
    try {
      stopPg();
    } catch {
      // already stopped
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it("logs requests without personal data, with request id, workspace, key and error code (D54)", { timeout: 120_000 }, async () => {
    const { workspace } = await svcJson(env, "workspace", "create", "--name", "Ops", "--plan", "pro");
    const key = await svcJson(env, "key", "create", "--workspace", String(workspace), "--mode", "test");
    const client = api(String(key.key), server.url);
    expect((await client.get("/contacts?phone=%2B5511977776666")).status).toBe(404);
    expect((await client.get("/contacts?email=ana%40example.com")).status).toBe(404);
    const lines = await eventually(
      async () =>
        server
          .output()
          .split("\n")
          .filter((l) => l.includes('"msg":"request"') && l.includes("/api/v1/contacts")),
      (l) => l.length >= 2,
    );
    expect(server.output()).not.toMatch(/5511977776666|ana(@|%40)example\.com/);
    const [phone, email] = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(phone).toMatchObject({
      url: "/api/v1/contacts?phone=[phone]",
      status: 404,
      requestId: expect.stringMatching(/^req_/),
      workspace: expect.any(String),
      key_id: key.id,
      code: "resource_missing",
    });
    expect(email).toMatchObject({ url: "/api/v1/contacts?email=[email]", key_id: key.id });
  });

  it.runIf(nonLoopbackAddress())("/metrics from another address than loopback needs the bearer token", async () => {
    const base = server.url.replace("127.0.0.1", nonLoopbackAddress()!);
    expect((await fetch(`${base}/metrics`)).status).toBe(401);
    expect((await fetch(`${base}/metrics`, { headers: { Authorization: "Bearer wrong" } })).status).toBe(401);
    expect(sample(await scrape(base, { Authorization: "Bearer metrics-token-for-tests" }), "svc_http_requests_total")).toBeGreaterThan(0);
  });

  it.runIf(nonLoopbackAddress())("/readyz from another address than loopback lists its checks only with the bearer token", async () => {
    const base = server.url.replace("127.0.0.1", nonLoopbackAddress()!);
    const bare = await fetch(`${base}/readyz`);
    expect(bare.status).toBe(200);
    expect(await bare.text()).toBe('{"ok":true}');
    const wrong = await fetch(`${base}/readyz`, { headers: { Authorization: "Bearer wrong" } });
    expect(await wrong.json()).toEqual({ ok: true });
    const operator = await fetch(`${base}/readyz`, { headers: { Authorization: "Bearer metrics-token-for-tests" } });
    expect(operator.status).toBe(200);
    expect(((await operator.json()) as { checks: { name: string }[] }).checks.map((c) => c.name)).toEqual([
      "database",
      "migrations",
      "pipeline",
    ]);
  });

  it("/readyz is 503 while the database is down, /healthz stays 200, and ready again after", { timeout: 200_000 }, async () => {
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    stopPg();
    const down = await fetch(`${server.url}/readyz`);
    expect(down.status).toBe(503);
    const body = (await down.json()) as { ok: boolean; checks: { name: string; ok: boolean }[] };
    expect(body.ok).toBe(false);
    expect(body.checks.map((c) => [c.name, c.ok])).toEqual(
      expect.arrayContaining([
        ["database", false],
        ["migrations", false],
      ]),
    );
    // From another address, only the status: not the database's error.
    const address = nonLoopbackAddress();
    if (address) {
      const outside = await fetch(`${server.url.replace("127.0.0.1", address)}/readyz`);
      expect(outside.status).toBe(503);
      expect(await outside.json()).toEqual({ ok: false });
    }
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(200);
    restartPg();
    const up = await eventually(
      () => fetch(`${server.url}/readyz`).then((r) => r.status),
      (s) => s === 200,
      60_000,
    );
    expect(up).toBe(200);
  });
});
