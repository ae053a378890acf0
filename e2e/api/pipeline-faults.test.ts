import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api } from "../support/client.ts";
import { freshDatabase, seedFixtures, queryDatabase } from "../support/database.ts";
import { startFakeWhatsApp, type FakeWhatsApp } from "../support/fake-whatsapp.ts";
import type { Fixtures } from "../support/fixtures.ts";
import { ROOT, startServer, type RunningServer } from "../support/server.ts";
import { startReceiver, type Receiver } from "../support/webhook-receiver.ts";
import { openWhatsAppWindow } from "../support/whatsapp-window.ts";
import { poll } from "../support/until.ts";
import { startSmtpSink } from "../support/smtp-sink.ts";

// The pipeline under faults (issues "Messages" and "Delivery guarantees", Done means): a server
// killed with SIGKILL in the middle of dispatching a batch, started again; (PostgreSQL)
// several servers dispatching from one database at once while the CPU is saturated and leases
// are 2 s; and a slow webhook endpoint next to a test message and another endpoint. Every
// message must reach a final state, and none may reach the provider twice except in the one
// window D47 allows (docs/pipeline.md): the provider accepted and the process died before the
// transaction recording `sent` committed.
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
  database = await freshDatabase(engine, `fault_${engine}`, { migrated: true });
  fx = seedFixtures(database.env);
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

const burners: ChildProcess[] = [];
const receivers: Receiver[] = [];

/** Saturates the CPU with `count` busy child processes until `stopBurning` (bounded to 3 minutes each). */
function burnCpu(count: number): void {
  for (let i = 0; i < count; i++) {
    const child = spawn(process.execPath, ["-e", "const end = Date.now() + 180000; while (Date.now() < end) {}"], { stdio: "ignore" });
    burners.push(child);
  }
}

function stopBurning(): void {
  for (const child of burners.splice(0)) child.kill("SIGKILL");
}

afterAll(async () => {
  stopBurning();
  await Promise.all(receivers.map((r) => r.close()));
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
        // D43: the recipient wrote first, so its 24-hour window is open.
        await openWhatsAppWindow(url, { phoneNumberId: "5550001", appSecret: "s" }, phone);
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
  return poll(
    async () => {
      const states = new Map<string, string>();
      for (const m of messages) states.set(m.id, (await client.get(`/messages/${m.id}`)).body.status);
      return states;
    },
    (states) => [...states.values()].every((s) => s !== "queued"),
    timeoutMs,
    500,
  );
}

function requestsByPhone(): Map<string, number[]> {
  const byPhone = new Map<string, number[]>();
  for (const r of fake.requests) {
    const phone = `+${r.body?.to}`;
    byPhone.set(phone, [...(byPhone.get(phone) ?? []), r.at]);
  }
  return byPhone;
}

/**
 * Kills `doomed` with SIGKILL and starts a server in its place, which must send every message
 * once, or twice within D47's window (`expectSentOnceButTheWindow`); when the kill was taken,
 * the provider calls made before it, and how many messages were repeated.
 */
async function killAndRevive(
  doomed: RunningServer,
  messages: { id: string; phone: string }[],
): Promise<{ killedAt: number; beforeKill: number; duplicated: number }> {
  await doomed.stop("SIGKILL");
  // Every call the killed process made is recorded once its connections have closed. Its
  // exit is seen first, and on a busy machine the fake read a call sent before the kill 157 ms
  // after that exit was seen: the time of the exit alone would count it as made after the kill.
  await fake.connectionsClosed();
  const killedAt = Date.now();
  const beforeKill = fake.requests.length;
  const revived = await start({ PIPELINE: "inline" });
  const duplicated = await expectSentOnceButTheWindow(revived, messages, killedAt);
  await revived.stop();
  return { killedAt, beforeKill, duplicated };
}

/**
 * Waits for every message to be `sent` through `server`, and checks that each reached the
 * provider once, or twice when its first call reached it before `killedAt` (D47's one window);
 * how many were repeated.
 */
async function expectSentOnceButTheWindow(
  server: RunningServer,
  messages: { id: string; phone: string }[],
  killedAt: number,
): Promise<number> {
  const states = await finalStates(server.url, messages, 60_000);
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
  return messages.filter((m) => (byPhone.get(m.phone)?.length ?? 0) > 1).length;
}

describe("pipeline faults", () => {
  it("a SIGKILL mid-batch loses nothing, and duplicates only what the provider accepted just before the kill", async () => {
    fake.reset();
    const first = await start({ PIPELINE: "off" });
    const messages = await accept(first.url, 150, "91");
    await first.stop();

    const doomed = await start({ PIPELINE: "inline" });
    await fake.waitForRequests(40, 30_000);
    const { beforeKill, duplicated } = await killAndRevive(doomed, messages);
    expect(duplicated).toBeLessThanOrEqual(beforeKill);
    console.log(
      `fault test (${engine}): ${beforeKill} provider calls before SIGKILL, ${duplicated} repeated after restart (the documented window)`,
    );
  }, 480_000);

  it("a SIGKILL of a server that accepts and dispatches at once loses none of the messages it accepted", async () => {
    // Its messages' jobs are written claimed by its own worker and started at commit: at the
    // kill, some are in a provider call, some not yet; the jobs wait for their lease, then the
    // next server sends them.
    fake.reset();
    const doomed = await start({ PIPELINE: "inline" });
    const client = api(fx.delivery!.keys.live, doomed.url);
    const phones = Array.from({ length: 50 }, (_, i) => `+5511993${String(i).padStart(6, "0")}`);
    for (const phone of phones) await openWhatsAppWindow(doomed.url, { phoneNumberId: "5550001", appSecret: "s" }, phone);
    const messages: { id: string; phone: string }[] = [];
    for (const batch of [phones.slice(0, 25), phones.slice(25)]) {
      const sent = await Promise.all(
        batch.map(async (phone) => {
          const res = await client.post("/messages", { channel: "whatsapp", to: { phone }, whatsapp: { body: "now" } });
          expect(res.status).toBe(202);
          return { id: res.body.id as string, phone };
        }),
      );
      messages.push(...sent);
    }
    // Killed as the second batch's answers arrive: its jobs are starting.
    const { killedAt, beforeKill, duplicated } = await killAndRevive(doomed, messages);
    const byPhone = requestsByPhone();
    const afterOnly = messages.filter((m) => byPhone.get(m.phone)!.every((t) => t > killedAt)).length;
    console.log(
      `hand-off fault test (${engine}): ${beforeKill} provider calls before SIGKILL, ${duplicated} repeated after restart (the documented window), ${afterOnly} first sent after it`,
    );
  }, 480_000);

  it.runIf(engine === "postgres")(
    "several servers dispatching from one database never call the provider twice for a message, on a saturated CPU with 2 s leases (D47)",
    async () => {
      fake.reset();
      const first = await start({ PIPELINE: "off" });
      const messages = await accept(first.url, 200, "92");
      await first.stop();
      // The backlog is held back while the workers start, then released at once to all three
      // while the CPU is saturated: leases far shorter than the provider's 15 s timeout, and
      // a CPU so busy that a claimed job can wait longer than its lease before its call. Only
      // the fence keeps calls single.
      await queryDatabase(database.env, `UPDATE jobs SET run_at = now() + interval '1 hour' WHERE kind = 'message.dispatch'`);
      const lease = { PIPELINE: "inline", PIPELINE_LEASE_SECONDS: "2" };
      const workers = await Promise.all([start(lease), start(lease), start(lease)]);
      burnCpu(3);
      try {
        await queryDatabase(database.env, `UPDATE jobs SET run_at = now() WHERE kind = 'message.dispatch'`);
        const states = await finalStates(workers[0]!.url, messages, 90_000);
        expect([...states.values()].filter((s) => s !== "sent")).toEqual([]);
        const byPhone = requestsByPhone();
        expect(messages.filter((m) => byPhone.get(m.phone)?.length !== 1)).toEqual([]);
        await Promise.all(workers.map((w) => w.stop()));
      } finally {
        stopBurning();
      }
    },
    600_000,
  );

  it("a webhook endpoint answering after 15 s delays neither a test message of another workspace nor another endpoint (D49)", async () => {
    const slow = await startReceiver();
    const fast = await startReceiver();
    receivers.push(slow, fast);
    slow.respond(() => ({ status: 200, delayMs: 15_000 }));
    const svc = (args: string[]) =>
      execFileSync(process.execPath, ["bin/svc.mjs", ...args, "--json"], {
        cwd: ROOT,
        env: { ...process.env, ...env() },
        encoding: "utf8",
      });
    svc(["webhook", "create", "--workspace", fx.webhooks!.id, "--url", slow.url]);
    svc(["webhook", "create", "--workspace", fx.other!.id, "--url", fast.url]);
    const server = await start({ PIPELINE: "inline", WEBHOOK_TIMEOUT_SECONDS: "10" });
    // Five events for the slow endpoint, all in flight before the rest starts.
    const slowClient = api(fx.webhooks!.keys.live, server.url);
    for (let i = 0; i < 5; i++) expect((await slowClient.post("/contacts", { email: `slow${i}@example.com` })).status).toBe(200);
    const slowHits = await slow.waitFor(() => true, 5, 10_000);
    // Until the first of them times out, all five are open: a message or a delivery that had to
    // wait for one of them would come after that. Both must come before it, whatever the load.
    const firstSlowEnds = Math.min(...slowHits.map((h) => h.at)) + 10_000;

    const other = api(fx.other!.keys.test, server.url);
    const accepted = await other.post("/messages", { channel: "whatsapp", to: { phone: "+5511987650001" }, whatsapp: { body: "hi" } });
    expect(accepted.status).toBe(202);
    const acceptedAt = Date.now();
    let status = accepted.body.status as string;
    while (status === "queued" && Date.now() < firstSlowEnds) {
      await new Promise((r) => setTimeout(r, 25));
      status = (await other.get(`/messages/${accepted.body.id}`)).body.status;
    }
    const sentAt = Date.now();
    const sentAfter = sentAt - acceptedAt;
    expect(status).not.toBe("queued");
    expect(sentAt).toBeLessThan(firstSlowEnds);

    const created = await api(fx.other!.keys.live, server.url).post("/contacts", { email: "fast@example.com" });
    expect(created.status).toBe(200);
    const createdAt = Date.now();
    const [hit] = await fast.waitFor((r) => r.body?.data?.id === created.body.id, 1, 10_000);
    const deliveredAfter = hit!.at - createdAt;
    expect(hit!.at).toBeLessThan(firstSlowEnds);
    console.log(`isolation (${engine}): test message sent after ${sentAfter} ms, other endpoint's delivery after ${deliveredAfter} ms`);
    await server.stop("SIGKILL");
  }, 400_000);

  it("a relay working slowly through a burst of 500 e-mails holds only its channel's slots: another workspace's message goes out meanwhile (D49)", async () => {
    // 250 ms a message over nodemailer's five connections: 20 a second, 25 s for the burst.
    const sink = await startSmtpSink({ latencyMs: 250 });
    try {
      const svc = (args: string[]) =>
        JSON.parse(
          execFileSync(process.execPath, ["bin/svc.mjs", ...args, "--json"], {
            cwd: ROOT,
            env: { ...process.env, ...env() },
            encoding: "utf8",
          }),
        );
      const { channel_id } = svc([
        "channel",
        "connect",
        "--workspace",
        fx.bounces!.id,
        "--type",
        "email",
        "--smtp-url",
        sink.url,
        "--from",
        "news@relay.example",
      ]);
      // Paced far above what the relay takes, as a sender with a generous plan sets it: only the
      // channel's slots hold its burst back.
      await queryDatabase(database.env, `UPDATE channels SET rate_per_second = 1000 WHERE workspace_id = $1 AND id = $2`, [
        fx.bounces!.id,
        channel_id,
      ]);
      const server = await start({ PIPELINE: "inline" });
      const burst = Array.from({ length: 500 }, (_, i) => ({
        channel: "email",
        to: { email: `burst${i}@relay.example` },
        email: { subject: "Burst", html: "<p>Burst</p>" },
      }));
      const batch = await api(fx.bounces!.keys.live, server.url).post("/messages/batch", { messages: burst });
      expect(batch.status, batch.text.slice(0, 300)).toBe(200);
      await sink.waitForMessages(1, 30_000);

      const other = api(fx.other!.keys.test, server.url);
      const accepted = await other.post("/messages", { channel: "whatsapp", to: { phone: "+5511987650002" }, whatsapp: { body: "hi" } });
      expect(accepted.status).toBe(202);
      const sent = await poll(
        () => other.get(`/messages/${accepted.body.id}`),
        (r) => r.body.status !== "queued",
        60_000,
        25,
      );
      // The burst started together would hold every slot of the worker, and the worker would
      // claim nothing more until 200 of them were done (it claims with half its slots free).
      // Held to its channel's slots, it leaves the rest to everyone else: the other message
      // leaves while most of the burst still waits. Counted, not timed: it holds on any load.
      const relayed = sink.messages.length;
      // A test message is delivered about 1 s after it is sent and read 2 s after (D35): seen by
      // a poll stretched by a loaded machine, it may already be past sent.
      expect(["sent", "delivered", "read"]).toContain(sent.body.status);
      expect(relayed).toBeLessThan(200);
      // And the burst all goes out, once each.
      const all = await sink.waitForMessages(500, 120_000);
      expect(new Set(all.map((m) => m.to[0])).size).toBe(500);
      console.log(`relay isolation (${engine}): the other workspace's message left with ${relayed} of the burst relayed`);
      await server.stop("SIGKILL");
    } finally {
      await sink.close();
    }
  }, 400_000);
});
