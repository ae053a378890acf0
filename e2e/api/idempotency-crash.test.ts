import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it, onTestFailed } from "vitest";
import { api, type ApiResponse } from "../support/client.ts";
import { freshDatabase, seedFixtures, queryDatabase } from "../support/database.ts";
import { startFakeWhatsApp, type FakeWhatsApp } from "../support/fake-whatsapp.ts";
import type { Fixtures } from "../support/fixtures.ts";
import { ROOT, startServer, type RunningServer } from "../support/server.ts";
import { openWhatsAppWindow } from "../support/whatsapp-window.ts";

// D46 (issue "Delivery guarantees"): a server SIGKILLed while idempotent sends and enrolls are
// in flight, started again on the same database; every request is retried with its key and
// body once the in-progress claims have expired (IDEMPOTENCY_CLAIM_SECONDS, shortened here).
// Each key ends with exactly one message or run, a retry of a committed request is a replay
// carrying `Idempotent-Replayed: true`, and each live message is counted once against the quota.
const engine = inject("api").engine;
const CLAIM_SECONDS = 2;
const SENDS = 200;
const ENROLLS = 100;
let database: Awaited<ReturnType<typeof freshDatabase>>;
let fake: FakeWhatsApp;
let fx: Fixtures;
const servers: RunningServer[] = [];

function svc(args: string[]): Record<string, string> {
  const out = execFileSync(process.execPath, ["bin/svc.mjs", ...args, "--json"], {
    cwd: ROOT,
    env: { ...process.env, ...database.env, ALLOW_PRIVATE_WEBHOOKS: "1" },
    encoding: "utf8",
  });
  return JSON.parse(out) as Record<string, string>;
}

async function start(): Promise<RunningServer> {
  const server = await startServer({ ...database.env, PIPELINE: "off", IDEMPOTENCY_CLAIM_SECONDS: String(CLAIM_SECONDS) });
  servers.push(server);
  return server;
}

beforeAll(async () => {
  database = await freshDatabase(engine, `idemcrash_${engine}`, { migrated: true });
  fx = seedFixtures(database.env);
  fake = await startFakeWhatsApp({});
  svc([
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
  ]);
}, 300_000);

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop("SIGKILL")));
  await fake?.close();
  await database?.drop();
});

type Attempt = { key: string; path: string; body: unknown; keyOf: string; phone: string; first?: ApiResponse };

describe("idempotency across a crash (D46)", () => {
  it("a SIGKILL mid-load, then a retry of every request: one message or run per key, replayed", async () => {
    // A 500 names its statement only in the server's log: kept for a failure.
    onTestFailed(() => {
      for (const s of servers) process.stderr.write(`server ${s.process.pid}:\n${s.output().slice(-8000)}\n`);
    });
    // Re-entry allowed, so a second attempt that ran again would show as a second run.
    const file = join(mkdtempSync(join(tmpdir(), "svc-flow-")), "flow.json");
    writeFileSync(file, JSON.stringify({ name: "Crash", allow_reentry: true, steps: [{ type: "wait", duration: "PT1H" }] }));
    const flowId = svc(["flow", "import", "--workspace", fx.flows!.id, "--file", file, "--status", "active"]).flow_id!;

    const attempts: Attempt[] = [
      ...Array.from({ length: SENDS }, (_, i) => {
        const phone = `+5511971${String(i).padStart(6, "0")}`;
        return {
          key: randomUUID(),
          path: "/messages",
          body: { channel: "whatsapp", to: { phone }, whatsapp: { body: `crash ${i}` } },
          keyOf: fx.delivery!.keys.live!,
          phone,
        };
      }),
      ...Array.from({ length: ENROLLS }, (_, i) => {
        const phone = `+5511972${String(i).padStart(6, "0")}`;
        return { key: randomUUID(), path: `/flows/${flowId}/enroll`, body: { to: { phone } }, keyOf: fx.flows!.keys.live!, phone };
      }),
    ];
    // Sends and enrolls interleaved.
    attempts.sort((a, b) => a.phone.slice(-6).localeCompare(b.phone.slice(-6)) || a.path.localeCompare(b.path));
    const post = (a: Attempt, url: string) => api(a.keyOf, url).post(a.path, a.body, { headers: { "Idempotency-Key": a.key } });

    const doomed = await start();
    // D43: the send recipients wrote first, so their 24-hour windows are open.
    for (let i = 0; i < attempts.length; i += 25) {
      await Promise.all(
        attempts
          .slice(i, i + 25)
          .filter((a) => a.path === "/messages")
          .map((a) => openWhatsAppWindow(doomed.url, { phoneNumberId: "5550001", appSecret: "s" }, a.phone)),
      );
    }
    let answered = 0;
    let next = 0;
    let killed = false;
    const kill = async () => {
      killed = true;
      await doomed.stop("SIGKILL");
    };
    let killing: Promise<void> | undefined;
    await Promise.all(
      Array.from({ length: 30 }, async () => {
        while (!killed && next < attempts.length) {
          const a = attempts[next++]!;
          try {
            a.first = await post(a, doomed.url);
            expect(a.first.status, a.first.text).toBe(a.path === "/messages" ? 202 : 201);
            if (++answered === Math.floor(attempts.length / 3)) killing = kill();
          } catch (err) {
            if (!killed) throw err;
          }
        }
      }),
    );
    await killing;
    const started = attempts.slice(0, next);
    const inFlight = started.filter((a) => a.first === undefined);
    expect(inFlight.length).toBeGreaterThan(0);

    const revived = await start();
    // Every claim of the dead process has expired by now.
    await new Promise((r) => setTimeout(r, CLAIM_SECONDS * 1000 + 1_000));
    const retries = new Map<Attempt, ApiResponse>();
    let cursor = 0;
    await Promise.all(
      Array.from({ length: 10 }, async () => {
        while (cursor < started.length) {
          const a = started[cursor++]!;
          retries.set(a, await post(a, revived.url));
        }
      }),
    );
    await revived.stop();

    const messages = await queryDatabase(
      database.env,
      // The sends only: the inbound messages that opened the windows are messages too (D44).
      `SELECT "to", array_agg(id ORDER BY id) AS ids FROM messages WHERE workspace_id = $1 AND direction = 'outbound' GROUP BY "to"`,
      [fx.delivery!.id],
    );
    const runs = await queryDatabase(
      database.env,
      `SELECT c.phone, array_agg(r.id ORDER BY r.id) AS ids FROM flow_runs r JOIN contacts c ON c.workspace_id = r.workspace_id AND c.id = r.contact_id
       WHERE r.workspace_id = $1 AND r.flow_id = $2 GROUP BY c.phone`,
      [fx.flows!.id, flowId],
    );
    const [usage] = await queryDatabase(
      database.env,
      `SELECT coalesce(sum(count), 0)::int AS n FROM usage_counters WHERE workspace_id = $1 AND mode = 'live'`,
      [fx.delivery!.id],
    );
    const created = new Map<string, string[]>([
      ...messages.map((m) => [m.to as string, m.ids as string[]] as const),
      ...runs.map((r) => [r.phone as string, r.ids as string[]] as const),
    ]);
    const duplicated = started.filter((a) => (created.get(a.phone)?.length ?? 0) > 1);
    console.log(
      `[${engine}] ${started.length} requests started, ${inFlight.length} in flight at the kill, ` +
        `${duplicated.length} keys with a second message or run (${duplicated.filter((a) => inFlight.includes(a)).length} of them in flight)`,
    );

    for (const a of started) {
      const retry = retries.get(a)!;
      const ids = created.get(a.phone) ?? [];
      expect(retry.status, `${a.phone}: ${retry.text}`).toBe(a.path === "/messages" ? 202 : 201);
      expect(ids, a.phone).toEqual([retry.body.id]);
      if (a.first) {
        // Answered before the kill: the retry is the stored answer.
        expect(retry.headers.get("idempotent-replayed"), a.phone).toBe("true");
        expect(retry.body, a.phone).toEqual(a.first.body);
      }
    }
    // The in-flight requests that had committed are replays, the others ran once, now.
    expect(duplicated).toEqual([]);
    const sends = started.filter((a) => a.path === "/messages").length;
    expect(messages.reduce((n, m) => n + (m.ids as string[]).length, 0)).toBe(sends);
    expect(usage!.n).toBe(sends);
  }, 900_000);
});
