import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { loadavg } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../support/client.ts";
import { freshDatabase, queryDatabase, seedFixtures } from "../support/database.ts";
import { postWebhook, statusWebhook } from "../support/fake-whatsapp.ts";
import { startFakeWhatsAppProcess, type FakeWhatsAppProcess } from "../support/fake-whatsapp-process.ts";
import type { Fixtures } from "../support/fixtures.ts";
import { startServers, type RunningServer } from "../support/server.ts";
import { svcJson } from "../support/svc.ts";
import { poll } from "../support/until.ts";
import { HELLO, HELLO_TEMPLATE } from "../support/whatsapp-window.ts";

// D47 on a starved CPU: three instances on one PostgreSQL database with CPU-bound processes
// beside them, sending to a Cloud API that answers in 3 s. An instance whose event loop stalls
// may come back to an answer that arrived in time after its deadline's timer is due; it reads
// the answer first. And a call that truly got no answer is never made again: its message waits
// for WhatsApp's report (matched by the `biz_opaque_callback_data` the send carried), or fails
// as `provider_timeout`. The fake Cloud APIs run in processes of their own: starved in the
// test's process, the fake accepted new connections so late that 3 s answers came after the
// deadline (e2e/support/fake-whatsapp-process.ts).

// Three instances on one database: PostgreSQL only. The file is a project of its own, run after
// every other file (vitest.config.ts).
const engine = "postgres";
const MESSAGES = 400;
const SETTLE_SECONDS = 60;

let database: Awaited<ReturnType<typeof freshDatabase>>;
let fx: Fixtures;
let answering: FakeWhatsAppProcess;
let silent: FakeWhatsAppProcess;
let servers: RunningServer[] = [];
const hogs: ChildProcess[] = [];

/** One process that keeps a core busy until it is killed. */
function cpuHog(): ChildProcess {
  const hog = spawn(process.execPath, ["-e", "for (;;) {}"], { stdio: "ignore" });
  hogs.push(hog);
  return hog;
}

async function connect(workspace: string, phoneNumberId: string, fake: FakeWhatsAppProcess): Promise<void> {
  const waba = `${phoneNumberId}0`;
  await fake.setTemplates(waba, [HELLO_TEMPLATE]);
  // prettier-ignore
  await svcJson({ ...database.env, ALLOW_PRIVATE_WEBHOOKS: "1" },
    "channel", "connect", "--workspace", workspace, "--type", "whatsapp", "--phone-number-id", phoneNumberId, "--waba-id", waba,
    "--access-token", "t", "--app-secret", "s", "--verify-token", "v", "--api-base-url", fake.url);
}

/** Sends `count` live template messages to new numbers, spread over the instances, 25 at a time; their ids. */
async function sendAll(key: string, prefix: string, count: number): Promise<string[]> {
  const ids: string[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: 25 }, async () => {
      while (next < count) {
        const i = next++;
        const res = await api(key, servers[i % servers.length]!.url).post("/messages", {
          channel: "whatsapp",
          to: { phone: `+${prefix}${String(i).padStart(5, "0")}` },
          whatsapp: HELLO,
        });
        expect(res.status, JSON.stringify(res.body)).toBe(202);
        ids[i] = res.body.id as string;
      }
    }),
  );
  return ids;
}

/** Each message's status once none is `queued` (or the deadline passed). */
async function settled(key: string, ids: string[], deadlineMs: number): Promise<Map<string, Record<string, any>>> {
  const client = api(key, servers[0]!.url);
  const deadline = performance.now() + deadlineMs; // monotonic, as support/until.ts's poll
  const states = new Map<string, Record<string, any>>();
  for (;;) {
    const open = ids.filter((id) => (states.get(id)?.status ?? "queued") === "queued");
    await Promise.all(
      Array.from({ length: 10 }, async () => {
        for (let id = open.pop(); id; id = open.pop()) states.set(id, (await client.get(`/messages/${id}`)).body);
      }),
    );
    if ([...states.values()].every((m) => m.status !== "queued") || performance.now() > deadline) return states;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}

/** Provider calls per message, from what the fake Cloud API received. */
const callsPerMessage = async (fake: FakeWhatsAppProcess, ids: string[]) => {
  const calls = new Map<string, number>();
  for (const r of await fake.requests())
    calls.set(r.body?.biz_opaque_callback_data, (calls.get(r.body?.biz_opaque_callback_data) ?? 0) + 1);
  return ids.map((id) => calls.get(id) ?? 0);
};

beforeAll(async () => {
  database = await freshDatabase(engine, "starved");
  fx = seedFixtures({ ...process.env, ...database.env });
  answering = await startFakeWhatsAppProcess({ latencyMs: 3_000 });
  silent = await startFakeWhatsAppProcess();
  await connect(fx.delivery!.id, "5550091", answering);
  await connect(fx.whatsapp!.id, "5550092", silent);
  // Only now: connecting lists the channel's templates on it.
  await silent.setMode({ kind: "hang" });
  servers = await startServers(3, {
    ...database.env,
    ALLOW_PRIVATE_WEBHOOKS: "1",
    PIPELINE: "inline",
    PROVIDER_SETTLE_SECONDS: String(SETTLE_SECONDS),
    // Three instances and their pipelines on the shared PostgreSQL beside other test files.
    DATABASE_POOL_SIZE: "8",
  });
  for (let i = 0; i < 3; i++) cpuHog();
}, 600_000);

afterAll(async () => {
  for (const hog of hogs) hog.kill("SIGKILL");
  await Promise.all(servers.map((s) => s.stop()));
  await answering?.close();
  await silent?.close();
  await database?.drop();
});

describe("three instances on a starved CPU (D47)", () => {
  it(`send each of ${MESSAGES} messages to a Cloud API answering in 3 s exactly once, and lose none`, { timeout: 600_000 }, async () => {
    const loadBefore = loadavg()[0]!;
    const ids = await sendAll(fx.delivery!.keys.live!, "55119771", MESSAGES);
    const states = await settled(fx.delivery!.keys.live!, ids, 480_000);
    const statuses = [...states.values()].map((m) => m.status as string);
    console.info(
      `starved CPU, answering in 3 s: load average ${loadBefore.toFixed(1)} -> ${loadavg()[0]!.toFixed(1)}; ` +
        `${statuses.filter((s) => s === "sent").length} of ${MESSAGES} sent, ${(await answering.requests()).length} provider calls`,
    );
    const unsent = [...states.values()].filter((m) => m.status !== "sent");
    expect(unsent.map((m) => ({ id: m.id, status: m.status, error_code: m.error_code, error: m.error }))).toEqual([]);
    expect((await callsPerMessage(answering, ids)).filter((n) => n !== 1)).toEqual([]);
  });

  it(
    "never call again a Cloud API that does not answer: each message waits for WhatsApp's report, or fails as provider_timeout",
    { timeout: 600_000 },
    async () => {
      const ids = await sendAll(fx.whatsapp!.keys.live!, "55119772", MESSAGES);
      while ((await callsPerMessage(silent, ids)).some((n) => n === 0)) await new Promise((resolve) => setTimeout(resolve, 500));
      // WhatsApp took every other message and reports on it, its report carrying our id (the
      // send's answer, with the wamid, never came): some reports arrive while the call is still
      // waiting, others once the message already says its outcome is unknown.
      const reported = new Map<string, string>();
      const callback = (i: number) => `${servers[i % servers.length]!.url}/api/providers/whatsapp`;
      await Promise.all(
        ids.map(async (id, i) => {
          if (i % 2 === 1) return;
          const wamid = `wamid.${randomBytes(18).toString("base64url")}`;
          reported.set(id, wamid);
          if (i % 4 === 2) await new Promise((resolve) => setTimeout(resolve, 20_000));
          for (const status of ["sent", "delivered"] as const) {
            const report = statusWebhook("5550092", [{ wamid, status, bizOpaqueCallbackData: id }]);
            expect((await postWebhook(callback(i), report, "s")).status).toBe(200);
          }
        }),
      );
      // Every report is in. The rest would fail once PROVIDER_SETTLE_SECONDS have passed since
      // their calls timed out: made due in SQL instead of waited for on the clock, once each of
      // them waits for its settle (the wait itself is D47's rule, not what this test proves).
      const unreported = ids.filter((id) => !reported.has(id));
      const waiting = () =>
        queryDatabase(
          database.env,
          `SELECT count(*)::int AS n FROM messages m WHERE m.id = ANY($1) AND (m.status <> 'queued'
             OR EXISTS (SELECT 1 FROM jobs j WHERE j.kind = 'message.settle' AND j.subject_id = m.id))`,
          [unreported],
        ).then((rows) => rows[0]!.n as number);
      // One whose call has not timed out yet by then gets its settle later, and is waited for on the clock.
      await poll(waiting, (n) => n === unreported.length, 120_000, 500);
      await queryDatabase(database.env, `UPDATE jobs SET run_at = now() WHERE kind = 'message.settle' AND subject_id = ANY($1)`, [
        unreported,
      ]);
      const states = await settled(fx.whatsapp!.keys.live!, ids, 480_000);
      for (const id of ids) {
        const m = states.get(id)!;
        if (reported.has(id)) {
          expect(m, id).toMatchObject({ status: "delivered", provider_message_id: reported.get(id), error: null, error_code: null });
        } else {
          expect(m, id).toMatchObject({ status: "failed", error_code: "provider_timeout" });
          expect(m.error).toMatch(/did not answer within 15 s/);
        }
      }
      expect((await callsPerMessage(silent, ids)).filter((n) => n !== 1)).toEqual([]);
    },
  );
});
