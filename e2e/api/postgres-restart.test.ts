import { execFileSync, spawnSync } from "node:child_process";
import { chownSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api } from "../support/client.ts";
import { startFakeWhatsApp, type FakeWhatsApp } from "../support/fake-whatsapp.ts";
import type { Fixtures } from "../support/fixtures.ts";
import { ROOT, startServer, type RunningServer } from "../support/server.ts";

// PostgreSQL restarted under load (issue "Delivery guarantees", Done means; D47): a cluster of
// this test's own (initdb into a temp folder, pg_ctl on a free port; the shared one is never
// touched) is restarted while messages are accepted and dispatched. Every 202 ends in a final
// state, no message reaches the provider twice, the server recovers without a restart, and
// requests during the outage answer `503 api_error` at once instead of hanging.
const engine = inject("api").engine;

const BIN = (() => {
  const versions = readdirSync("/usr/lib/postgresql").sort((a, b) => Number(b) - Number(a));
  return join("/usr/lib/postgresql", versions[0]!, "bin");
})();
const asRoot = process.getuid?.() === 0;

/** Runs a PostgreSQL binary, as the `postgres` user when the tests run as root (initdb refuses root). */
function pgBin(name: string, args: string[]): string {
  const [cmd, argv] = asRoot ? ["runuser", ["-u", "postgres", "--", join(BIN, name), ...args]] : [join(BIN, name), args];
  const out = spawnSync(cmd, argv, { encoding: "utf8", timeout: 60_000 });
  if (out.status !== 0) throw new Error(`${name} ${args.join(" ")} failed: ${out.stderr}${out.stdout}`);
  return out.stdout;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

let dir: string;
let port: number;
let fake: FakeWhatsApp;
let fx: Fixtures;
let server: RunningServer | undefined;
let databaseUrl: string;

const dataDir = () => join(dir, "data");
const startCluster = () =>
  pgBin("pg_ctl", [
    "-D",
    dataDir(),
    "-l",
    join(dir, "postgres.log"),
    "-w",
    "-o",
    `-p ${port} -c listen_addresses=127.0.0.1 -k ${dir} -c fsync=off -c full_page_writes=off`,
    "start",
  ]);
const stopCluster = (mode: "fast" | "immediate") => pgBin("pg_ctl", ["-D", dataDir(), "-m", mode, "-w", "stop"]);

describe.runIf(engine === "postgres")("PostgreSQL restarted under load", () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "svc-pgrestart-"));
    if (asRoot) {
      const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
      const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
      chownSync(dir, uid, gid);
    }
    port = await freePort();
    pgBin("initdb", ["-D", dataDir(), "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-sync"]);
    startCluster();
    const admin = new pg.Client({ connectionString: `postgresql://postgres@127.0.0.1:${port}/postgres` });
    await admin.connect();
    await admin.query("CREATE DATABASE svc");
    await admin.end();
    databaseUrl = `postgresql://postgres@127.0.0.1:${port}/svc`;
    const env = { ...process.env, DATABASE_URL: databaseUrl, DATA_DIR: dir };
    fx = JSON.parse(execFileSync(process.execPath, ["--import", "tsx", "e2e/support/seed.ts"], { cwd: ROOT, env, encoding: "utf8" }));
    fake = await startFakeWhatsApp({ latencyMs: 100 });
    execFileSync(
      process.execPath,
      [
        "bin/svc.mjs",
        "channel",
        "connect",
        "--workspace",
        fx.delivery!.id,
        "--type",
        "whatsapp",
        "--phone-number-id",
        "5550002",
        "--access-token",
        "t",
        "--app-secret",
        "s",
        "--verify-token",
        "v",
        "--api-base-url",
        fake.url,
        "--json",
      ],
      { cwd: ROOT, env: { ...env, ALLOW_PRIVATE_WEBHOOKS: "1" }, encoding: "utf8" },
    );
  }, 300_000);

  afterAll(async () => {
    await server?.stop("SIGKILL");
    await fake?.close();
    try {
      stopCluster("immediate");
    } catch {
      // already stopped
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("every accepted message ends sent, once at the provider; the outage answers 503 at once; the server recovers", async () => {
    server = await startServer({
      DATABASE_URL: databaseUrl,
      DATA_DIR: dir,
      PIPELINE: "inline",
      PIPELINE_LEASE_SECONDS: "10",
      ALLOW_PRIVATE_WEBHOOKS: "1",
    });
    const client = api(fx.delivery!.keys.live, server.url);
    const accepted: { id: string; phone: string }[] = [];
    const refused: { status: number; type: string; code: string; ms: number }[] = [];
    const other: { status: number; body: unknown }[] = [];
    let seq = 0;
    let sending = true;
    // Four clients sending back to back until told to stop.
    const senders = Array.from({ length: 4 }, async () => {
      while (sending) {
        const phone = `+55119${String(seq++).padStart(8, "0")}`;
        const started = Date.now();
        const res = await client.post("/messages", { channel: "whatsapp", to: { phone }, whatsapp: { body: "restart" } });
        if (res.status === 202) accepted.push({ id: res.body.id, phone });
        else if (res.status === 503)
          refused.push({ status: 503, type: res.body.error?.type, code: res.body.error?.code, ms: Date.now() - started });
        else other.push({ status: res.status, body: res.body });
        if (res.status !== 202) await new Promise((r) => setTimeout(r, 50));
      }
    });
    const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
    await pause(2_000);
    const acceptedBefore = accepted.length;
    stopCluster("fast");
    await pause(3_000);
    const refusedDuringOutage = refused.length;
    startCluster();
    await pause(4_000);
    sending = false;
    await Promise.all(senders);

    // The server recovered without a restart: it accepts again after the cluster is back.
    expect(accepted.length).toBeGreaterThan(acceptedBefore);
    expect(server.process.exitCode).toBeNull();
    // The outage was seen, and answered with 503 api_error, fast.
    expect(refusedDuringOutage).toBeGreaterThan(0);
    expect(other).toEqual([]);
    for (const r of refused) expect(r).toMatchObject({ type: "api_error", code: "service_unavailable" });
    const slowest = Math.max(...refused.map((r) => r.ms));
    expect(slowest).toBeLessThan(2_000);

    // Every accepted message reaches `sent`, with one provider call each.
    const deadline = Date.now() + 90_000;
    let pending = accepted;
    while (pending.length && Date.now() < deadline) {
      const states = await Promise.all(pending.map(async (m) => ({ m, status: (await client.get(`/messages/${m.id}`)).body.status })));
      expect(states.filter((s) => s.status !== "queued" && s.status !== "sent" && s.status !== "delivered" && s.status !== "read")).toEqual(
        [],
      );
      pending = states.filter((s) => s.status === "queued").map((s) => s.m);
      if (pending.length) await pause(500);
    }
    expect(pending).toEqual([]);
    const calls = new Map<string, number>();
    for (const r of fake.requests) calls.set(`+${r.body?.to}`, (calls.get(`+${r.body?.to}`) ?? 0) + 1);
    expect([...calls.entries()].filter(([, n]) => n > 1)).toEqual([]);
    for (const m of accepted) expect(calls.get(m.phone), m.phone).toBe(1);
    console.log(
      `postgres restart: ${accepted.length} accepted (${acceptedBefore} before the stop), ${refused.length} refused with 503 (slowest ${slowest} ms), ${fake.requests.length} provider calls`,
    );
    await server.stop();
  }, 500_000);
});
