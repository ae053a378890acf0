import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CITUS_SPARE_ENV, citusPorts, createCitusDatabase } from "../support/citus.ts";
import { api } from "../support/client.ts";
import { seedFixtures } from "../support/database.ts";
import { inboundTextWebhook, postWebhook, startFakeWhatsApp, type FakeWhatsApp } from "../support/fake-whatsapp.ts";
import type { FixtureWorkspace } from "../support/fixtures.ts";
import { startServer, type RunningServer } from "../support/server.ts";
import { svcJson } from "../support/svc.ts";
import { poll } from "../support/until.ts";

// D87's fault test: an operator adds a worker and rebalances while the service sends. A
// database of its own (the other files' stays on two workers), a server of its own, live
// WhatsApp sends to a fake Cloud API and journey runs in several workspaces, all the while
// the spare node joins and `citus_rebalance_start()` moves shards to it. Then: every request
// answered, none failing for longer than the move, every message handed to the provider
// exactly once, every run ended.

const AUTH_SECRET = `rebalance-${randomUUID()}`;
// Workspaces with test and live keys and no daily limit.
const NAMES = ["main", "other", "contacts", "integrators", "webhookEndpoints", "eventStream"];

type Placed = { ws: FixtureWorkspace; phone: string; phoneNumberId: string; appSecret: string; flowId: string };

let database: { url: string; drop: () => Promise<void> };
let dataDir: string;
let server: RunningServer;
let fake: FakeWhatsApp;
let env: Record<string, string>;
let placed: Placed[] = [];

const query = async <T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> => {
  const c = new pg.Client({ connectionString: database.url });
  await c.connect();
  try {
    return (await c.query(sql, params)).rows as T[];
  } finally {
    await c.end();
  }
};

beforeAll(async () => {
  const spare = Number(process.env[CITUS_SPARE_ENV]);
  const name = `svc_rebalance_${Date.now().toString(36)}`;
  database = await createCitusDatabase(citusPorts()!, name, [spare]);
  dataDir = mkdtempSync(join(tmpdir(), "svc-rebalance-"));
  env = { DATABASE_URL: database.url, DATA_DIR: dataDir, AUTH_SECRET, ALLOW_PRIVATE_WEBHOOKS: "1" };
  server = await startServer({ ...env, PIPELINE: "inline" });
  const fx = seedFixtures(env);
  fake = await startFakeWhatsApp({ latencyMs: 5 });
  const flowFile = join(dataDir, "flow.json");
  writeFileSync(
    flowFile,
    JSON.stringify({
      name: "Rebalance journey",
      steps: [
        { type: "send", channel: "whatsapp", whatsapp: { body: "Welcome" } },
        { type: "wait", duration: "PT1S" },
      ],
    }),
  );
  placed = [];
  for (const ws of NAMES.map((n) => fx[n]!).filter((w) => w.keys.test && w.keys.live)) {
    const phoneNumberId = String(100_000_000 + Math.floor(Math.random() * 899_999_999));
    const appSecret = `secret-${randomUUID()}`;
    await svcJson(
      env,
      ...["channel", "connect", "--workspace", ws.id, "--type", "whatsapp", "--phone-number-id", phoneNumberId],
      ...["--access-token", "t", "--app-secret", appSecret, "--verify-token", "v", "--api-base-url", fake.url],
    );
    const flow = await svcJson(env, "flow", "import", "--workspace", ws.id, "--file", flowFile, "--status", "active");
    const phone = `+55119${String(10_000_000 + placed.length)}`;
    // The contact writes first: the 24-hour window opens for free-form sends (D43).
    const inbound = await postWebhook(
      `${server.url}/api/providers/whatsapp`,
      inboundTextWebhook(phoneNumberId, phone.slice(1), "hi"),
      appSecret,
    );
    expect(inbound.status).toBe(200);
    placed.push({ ws, phone, phoneNumberId, appSecret, flowId: flow.flow_id as string });
  }
}, 180_000);

afterAll(async () => {
  await server?.stop();
  await fake?.close();
  await database?.drop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

type Outcome = { at: number; done: number; ok: boolean; kind: "message" | "run"; id?: string; answer: string };

describe("adding a worker and rebalancing while the service sends (D87)", () => {
  it("loses nothing, sends nothing twice, and fails no request for longer than the move", async () => {
    const outcomes: Outcome[] = [];
    let sending = true;
    // One sender per workspace: a workspace whose shard is being moved waits, the others go on.
    let i = 0;
    const send = async (p: Placed) => {
      while (sending) {
        i++;
        const at = Date.now();
        if (i % 4 === 3) {
          const res = await api(p.ws.keys.test!, server.url).post(`/flows/${p.flowId}/enroll`, {
            to: { phone: `+55119${String(70_000_000 + i)}` },
          });
          outcomes.push({
            at,
            done: Date.now(),
            ok: res.status === 201,
            kind: "run",
            id: res.body?.id,
            answer: `${res.status} ${res.text}`,
          });
        } else {
          const res = await api(p.ws.keys.live!, server.url).post("/messages", {
            channel: "whatsapp",
            to: { phone: p.phone },
            whatsapp: { body: `m${i}` },
          });
          outcomes.push({
            at,
            done: Date.now(),
            ok: res.status === 202,
            kind: "message",
            id: res.body?.id,
            answer: `${res.status} ${res.text}`,
          });
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    const sender = Promise.all(placed.map(send));
    const spare = Number(process.env[CITUS_SPARE_ENV]);
    const workers = async () =>
      (
        await query<{ port: number }>(
          `SELECT DISTINCT nodeport AS port FROM citus_shards WHERE table_name = 'workspaces'::regclass ORDER BY 1`,
        )
      ).map((r) => r.port);
    const workersBefore = await workers();
    await new Promise((r) => setTimeout(r, 1_000));
    const moveStarted = Date.now();
    await query(`SELECT citus_add_node('127.0.0.1', $1)`, [spare]);
    // Without wal_level = logical on the nodes, a shard is copied with its writes held back.
    await query(`SELECT citus_rebalance_start(shard_transfer_mode => 'block_writes')`);
    const status = await poll(
      async () => (await query<{ state: string }>(`SELECT state::text FROM citus_rebalance_status()`))[0]?.state,
      (state) => state !== "running" && state !== "scheduled",
      90_000,
      200,
    );
    const moveEnded = Date.now();
    await new Promise((r) => setTimeout(r, 1_000));
    sending = false;
    await sender;
    expect(status).toBe("finished");
    expect(workersBefore).toHaveLength(2);
    expect(await workers()).toEqual([...workersBefore, spare].sort((a, b) => a - b));

    // Every request answered; a failed one only while shards moved.
    const failed = outcomes.filter((o) => !o.ok);
    expect(failed.filter((f) => f.done < moveStarted || f.at > moveEnded).map((f) => f.answer)).toEqual([]);
    const slowest = Math.max(...outcomes.map((o) => o.done - o.at));
    console.log(
      `rebalance: moved in ${moveEnded - moveStarted} ms; ${outcomes.length} requests, ${failed.length} failed during the move, the slowest took ${slowest} ms`,
      failed.slice(0, 3).map((f) => f.answer.slice(0, 300)),
    );
    const messages = outcomes.filter((o) => o.ok && o.kind === "message").map((o) => o.id!);
    const runs = outcomes.filter((o) => o.ok && o.kind === "run").map((o) => o.id!);
    expect(messages.length).toBeGreaterThan(20);
    expect(runs.length).toBeGreaterThan(5);
    // A request waits at most for the move (writes to a shard being moved are held back), never longer.
    expect(slowest).toBeLessThan(moveEnded - moveStarted + 5_000);

    // Nothing lost: every message handed to the provider and sent, every run ended.
    const settled = await poll(
      () =>
        query<{ sent: number; runs: number }>(
          `SELECT (SELECT count(*)::int FROM messages WHERE id = ANY($1::text[]) AND status = 'sent') AS sent,
                  (SELECT count(*)::int FROM flow_runs WHERE id = ANY($2::text[]) AND status = 'completed') AS runs`,
          [messages, runs],
        ),
      (rows) => rows[0]!.sent === messages.length && rows[0]!.runs === runs.length,
      45_000,
      250,
    );
    if (settled[0]!.sent !== messages.length || settled[0]!.runs !== runs.length) {
      // What held the rest: their rows and jobs, and what the server warned of.
      const stuck = await query(
        `SELECT m.id, m.status::text, m.error_code, j.kind, j.attempts, j.run_at, j.lease_until, j.last_error
           FROM messages m LEFT JOIN jobs j ON j.workspace_id = m.workspace_id AND j.subject_id = m.id
          WHERE m.id = ANY($1::text[]) AND m.status <> 'sent'`,
        [messages],
      );
      console.log(
        "rebalance: not sent",
        stuck,
        server
          .output()
          .split("\n")
          .filter((l) => /"level":(40|50|60)/.test(l))
          .slice(-20),
      );
    }
    expect(settled[0]).toEqual({ sent: messages.length, runs: runs.length });
    // Nothing sent twice: one provider call per message.
    const calls = new Map<string, number>();
    for (const r of fake.requests) {
      const id = r.body?.biz_opaque_callback_data as string | undefined;
      if (id) calls.set(id, (calls.get(id) ?? 0) + 1);
    }
    expect(messages.filter((id) => calls.get(id) !== 1)).toEqual([]);
  }, 150_000);
});
