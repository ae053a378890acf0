import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api } from "../support/client.ts";
import { freshDatabase } from "../support/database.ts";
import { startFakeWhatsApp, type FakeWhatsApp } from "../support/fake-whatsapp.ts";
import type { Fixtures } from "../support/fixtures.ts";
import { ROOT, startServer, type RunningServer } from "../support/server.ts";

// The pipeline under faults (issue "Messages", Done means): a server killed with SIGKILL in the
// middle of dispatching a batch, started again; and (PostgreSQL) several servers dispatching
// from one database at once. Every message must reach a final state, and none may reach the
// provider twice except in the one documented window (docs/pipeline.md): the provider accepted
// and the process died before the transaction recording `sent` committed.
const engine = inject("api").engine;
let database: Awaited<ReturnType<typeof freshDatabase>>;
let fake: FakeWhatsApp;
let fx: Fixtures;
const servers: RunningServer[] = [];

const env = (extra: Record<string, string> = {}) => ({
  ...database.env,
  ALLOW_PRIVATE_WEBHOOKS: "1",
  PIPELINE_LEASE_SECONDS: "3",
  ...extra,
});

beforeAll(async () => {
  database = await freshDatabase(engine, `fault_${engine}`);
  fx = JSON.parse(
    execFileSync(process.execPath, ["--import", "tsx", "e2e/support/seed.ts"], {
      cwd: ROOT,
      env: { ...process.env, ...database.env },
      encoding: "utf8",
    }),
  );
  fake = await startFakeWhatsApp({ latencyMs: 150 });
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
      "5550001",
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
    { cwd: ROOT, env: { ...process.env, ...env() }, encoding: "utf8" },
  );
});

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop("SIGKILL")));
  await fake?.close();
  await database?.drop();
});

async function start(extra: Record<string, string>): Promise<RunningServer> {
  const server = await startServer(env(extra));
  servers.push(server);
  return server;
}

/** Accepts `count` live messages, each to its own phone, with the pipeline off. */
async function accept(url: string, count: number, tag: string): Promise<{ id: string; phone: string }[]> {
  const client = api(fx.delivery!.keys.live, url);
  const out: { id: string; phone: string }[] = [];
  for (let i = 0; i < count; i += 25) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(25, count - i) }, async (_, j) => {
        const phone = `+55119${tag}${String(i + j).padStart(6, "0")}`;
        const res = await client.post("/messages", { channel: "whatsapp", to: { phone }, whatsapp: { body: `m ${i + j}` } });
        expect(res.status).toBe(202);
        return { id: res.body.id as string, phone };
      }),
    );
    out.push(...batch);
  }
  return out;
}

async function finalStates(url: string, messages: { id: string }[], timeoutMs: number): Promise<Map<string, string>> {
  const client = api(fx.delivery!.keys.live, url);
  const until = Date.now() + timeoutMs;
  for (;;) {
    const states = new Map<string, string>();
    for (const m of messages) states.set(m.id, (await client.get(`/messages/${m.id}`)).body.status);
    if ([...states.values()].every((s) => s !== "queued") || Date.now() > until) return states;
    await new Promise((r) => setTimeout(r, 500));
  }
}

function requestsByPhone(): Map<string, number[]> {
  const byPhone = new Map<string, number[]>();
  for (const r of fake.requests) {
    const phone = `+${r.body?.to}`;
    byPhone.set(phone, [...(byPhone.get(phone) ?? []), r.at]);
  }
  return byPhone;
}

describe("pipeline faults", () => {
  it("a SIGKILL mid-batch loses nothing, and duplicates only what the provider accepted just before the kill", async () => {
    fake.reset();
    const first = await start({ PIPELINE: "off" });
    const messages = await accept(first.url, 150, "91");
    await first.stop();

    const doomed = await start({ PIPELINE: "inline" });
    await fake.waitForRequests(40, 30_000);
    await doomed.stop("SIGKILL");
    // Observed after the process is gone: every call it made reached the fake before this.
    const killedAt = Date.now();
    const beforeKill = fake.requests.length;

    const revived = await start({ PIPELINE: "inline" });
    const states = await finalStates(revived.url, messages, 60_000);
    expect([...states.values()].filter((s) => s !== "sent")).toEqual([]);

    const byPhone = requestsByPhone();
    for (const m of messages) {
      const times = byPhone.get(m.phone) ?? [];
      expect(times.length, m.phone).toBeGreaterThanOrEqual(1);
      // A second call only for a message whose first call reached the provider before the kill.
      if (times.length > 1) {
        expect(times.length, m.phone).toBe(2);
        expect(times[0]!, m.phone).toBeLessThanOrEqual(killedAt);
      }
    }
    const duplicated = messages.filter((m) => (byPhone.get(m.phone)?.length ?? 0) > 1).length;
    expect(duplicated).toBeLessThanOrEqual(beforeKill);
    console.log(
      `fault test (${engine}): ${beforeKill} provider calls before SIGKILL, ${duplicated} repeated after restart (the documented window)`,
    );
    await revived.stop();
  }, 180_000);

  it.runIf(engine === "postgres")(
    "several servers dispatching from one database never call the provider twice for a message",
    async () => {
      fake.reset();
      const first = await start({ PIPELINE: "off" });
      const messages = await accept(first.url, 200, "92");
      await first.stop();
      const workers = await Promise.all([start({ PIPELINE: "inline" }), start({ PIPELINE: "inline" }), start({ PIPELINE: "inline" })]);
      const states = await finalStates(workers[0]!.url, messages, 60_000);
      expect([...states.values()].filter((s) => s !== "sent")).toEqual([]);
      const byPhone = requestsByPhone();
      expect(messages.filter((m) => byPhone.get(m.phone)?.length !== 1)).toEqual([]);
      await Promise.all(workers.map((w) => w.stop()));
    },
    180_000,
  );
});
