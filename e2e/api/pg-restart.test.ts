import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { FIXTURE_ADMIN, type Fixtures } from "../support/fixtures.ts";
import { startFakeWhatsApp, statusWebhook, type FakeWhatsApp } from "../support/fake-whatsapp.ts";
import { HELLO, HELLO_TEMPLATE } from "../support/whatsapp-window.ts";
import { startCitusPgCluster } from "../support/citus.ts";
import { startPgCluster, type PgCluster } from "../support/pg-cluster.ts";
import { svcJson } from "../support/svc.ts";
import { seedFixtures } from "../support/database.ts";
import { startServer, type RunningServer } from "../support/server.ts";
import { signIn } from "../support/sign-in.ts";

// PostgreSQL restarted while messages are accepted and dispatched (issue "Delivery
// guarantees", Done means; D47, D52). The test runs a PostgreSQL cluster of its own (the
// shared server is never stopped) and restarts it under a steady stream of `POST /messages`.
// Every 202 must end `sent`, no message may reach the provider twice, requests during the
// outage must be refused with 503 `api_error` within 2 s (not hang), `/readyz` must say 503
// while the database is away and 200 after, `/healthz` stays 200, a dashboard call answers
// tRPC's SERVICE_UNAVAILABLE, and the same server process serves again once it is back.

const engine = inject("api").engine;
/** The most a refusal may take while the database is away. */
const FAST_MS = 2_000;
const OUTAGE_MS = 4_000;
/** The server's shutdown deadline in this file (SHUTDOWN_TIMEOUT_SECONDS; 30 by default). */
const SHUTDOWN_S = 5;

type Result = { phone: string; startedAt: number; ms: number; status: number; body: any };

let cluster: PgCluster;
let server: RunningServer;
let fake: FakeWhatsApp;
let fx: Fixtures;
let dataDir: string;

describe.runIf(engine === "postgres")("PostgreSQL restarted mid-load", () => {
  beforeAll(async () => {
    // On the api-citus project, a Citus cluster of its own: the coordinator is restarted (D87).
    cluster = process.env.SVC_CITUS === "1" ? await startCitusPgCluster() : await startPgCluster();
    dataDir = mkdtempSync(join(tmpdir(), "svc-pgrestart-"));
    const env = { DATABASE_URL: cluster.url, DATA_DIR: dataDir, ALLOW_PRIVATE_WEBHOOKS: "1", LOG_LEVEL: "warn" };
    fx = seedFixtures(env);
    fake = await startFakeWhatsApp({ latencyMs: 50 });
    // Every send goes to a new contact (window closed): a template (D43).
    fake.templates.set("5550002", [HELLO_TEMPLATE]);
    // prettier-ignore
    await svcJson(env,
      "channel", "connect", "--workspace", fx.delivery!.id, "--type", "whatsapp", "--phone-number-id", "5550001",
      "--waba-id", "5550002", "--access-token", "t", "--app-secret", "s", "--verify-token", "v", "--api-base-url", fake.url);
    server = await startServer({ ...env, PIPELINE: "inline", SHUTDOWN_TIMEOUT_SECONDS: String(SHUTDOWN_S) });
  }, 600_000);

  afterAll(async () => {
    await server?.stop("SIGKILL");
    await fake?.close();
    cluster?.destroy();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it("every accepted message is sent once, the outage answers 503 fast, and the same process serves again", async () => {
    const results: Result[] = [];
    let sending = true;
    let n = 0;
    const send = async (): Promise<void> => {
      while (sending) {
        const phone = `+55119${String(n++).padStart(8, "0")}`;
        const startedAt = Date.now();
        let status = 0;
        let body: any = null;
        try {
          // Bounded, so a hanging request shows as a failure instead of stalling the test.
          const res = await fetch(`${server.url}/api/v1/messages`, {
            method: "POST",
            headers: { Authorization: `Bearer ${fx.delivery!.keys.live}`, "Content-Type": "application/json" },
            body: JSON.stringify({ channel: "whatsapp", to: { phone }, whatsapp: HELLO }),
            signal: AbortSignal.timeout(30_000),
          });
          status = res.status;
          body = await res.json().catch(() => null);
        } catch (err) {
          body = String(err);
        }
        results.push({ phone, startedAt, ms: Date.now() - startedAt, status, body });
        if (status !== 202) await new Promise((r) => setTimeout(r, 50));
      }
    };
    const timed = async (path: string, init?: RequestInit) => {
      const at = Date.now();
      const res = await fetch(`${server.url}${path}`, { ...init, signal: AbortSignal.timeout(30_000) });
      return { status: res.status, body: (await res.json().catch(() => null)) as any, ms: Date.now() - at };
    };
    const cookie = await signIn(server.url, FIXTURE_ADMIN.email, FIXTURE_ADMIN.password);
    const dashboard = () => timed("/api/trpc/usage.report", { headers: { Cookie: cookie, "x-svc-workspace": fx.delivery!.id } });
    expect((await dashboard()).status).toBe(200);
    expect((await timed("/readyz")).status).toBe(200);

    const senders = Array.from({ length: 4 }, () => send());
    try {
      // Load flows and the pipeline dispatches before the database goes away.
      while (fake.requests.length < 20) await new Promise((r) => setTimeout(r, 100));

      const stopFrom = Date.now();
      await cluster.stop();
      const downAt = Date.now();
      console.log(`stop took ${downAt - stopFrom} ms`);
      const readyDown = await timed("/readyz");
      const healthDown = await timed("/healthz");
      const dashboardDown = await dashboard();
      // A provider's callback (a route handler of its own) while the database is away.
      const callbackDown = await timed("/api/providers/whatsapp", {
        method: "POST",
        headers: { "X-Hub-Signature-256": `sha256=${"0".repeat(64)}`, "Content-Type": "application/json" },
        body: JSON.stringify(statusWebhook("5550001", [])),
      });
      await new Promise((r) => setTimeout(r, OUTAGE_MS - (Date.now() - downAt)));
      const upFrom = Date.now();
      await cluster.start();
      const upAt = Date.now();

      // The same process serves again: ready, and new messages are accepted.
      let readyUp = await timed("/readyz");
      while (readyUp.status !== 200 && Date.now() - upAt < 30_000) {
        await new Promise((r) => setTimeout(r, 200));
        readyUp = await timed("/readyz");
      }
      const readyAt = Date.now();
      const acceptedAfter = () => results.filter((r) => r.startedAt > readyAt && r.status === 202).length;
      while (acceptedAfter() < 20 && Date.now() - readyAt < 30_000) await new Promise((r) => setTimeout(r, 100));
      sending = false;
      await Promise.all(senders);

      // Every answer is an acceptance or the outage's 503; the refusals come fast.
      const byStatus = new Map<number, Result[]>();
      for (const r of results) byStatus.set(r.status, [...(byStatus.get(r.status) ?? []), r]);
      const refused = byStatus.get(503) ?? [];
      const during = results.filter((r) => r.startedAt >= downAt && r.startedAt + r.ms <= upFrom);
      const summary = `${results.length} requests: ${[...byStatus].map(([s, rs]) => `${rs.length} × ${s}`).join(", ")}; 503 in ${
        refused.length ? `${Math.min(...refused.map((r) => r.ms))}-${Math.max(...refused.map((r) => r.ms))}` : "-"
      } ms; /readyz 503 in ${readyDown.ms} ms, 200 again ${readyAt - upAt} ms after the restart; dashboard 503 in ${dashboardDown.ms} ms`;
      const slow = refused.filter((r) => r.ms >= 1_000).map((r) => `${r.ms} ms from ${r.startedAt - downAt} ms`);
      console.log(
        `PostgreSQL restart: ${summary}; outage ${upFrom - downAt} ms, start took ${upAt - upFrom} ms; slow 503s: ${slow.join(", ")}`,
      );
      expect(readyDown.status).toBe(503);
      // The callback fails (the provider retries it) and the failure is in the log with its route.
      expect(callbackDown.status).toBeGreaterThanOrEqual(500);
      expect(server.output()).toMatch(/"route":"\/api\/providers\/whatsapp".*"msg":"request failed"/);
      expect(readyDown.body.checks.find((c: { name: string }) => c.name === "database").ok).toBe(false);
      expect(readyDown.ms).toBeLessThan(FAST_MS + 500);
      expect(healthDown.status).toBe(200);
      expect(dashboardDown.status).toBe(503);
      expect(dashboardDown.body.error.data.code).toBe("SERVICE_UNAVAILABLE");
      expect(dashboardDown.ms).toBeLessThan(FAST_MS);
      expect(readyUp.status).toBe(200);
      expect((await dashboard()).status).toBe(200);

      expect(results.filter((r) => r.status !== 202 && r.status !== 503)).toEqual([]);
      expect(refused.length).toBeGreaterThan(0);
      for (const r of refused) {
        expect(r.body.error).toMatchObject({ type: "api_error", code: "service_unavailable" });
        expect(r.ms, `a 503 took ${r.ms} ms`).toBeLessThan(FAST_MS);
      }
      expect(during.length).toBeGreaterThan(0);
      expect(during.filter((r) => r.status !== 503)).toEqual([]);
      expect(acceptedAfter()).toBeGreaterThanOrEqual(20);

      // Every 202 ends `sent`, each accepted message reached the provider exactly once, and none twice.
      const accepted = byStatus.get(202) ?? [];
      const until = Date.now() + 90_000;
      let pending = accepted.map((r) => r.body.id as string);
      while (pending.length && Date.now() < until) {
        const states = await Promise.all(
          pending.map(async (id) => {
            const res = await fetch(`${server.url}/api/v1/messages/${id}`, {
              headers: { Authorization: `Bearer ${fx.delivery!.keys.live}` },
            });
            return { id, status: ((await res.json()) as { status: string }).status };
          }),
        );
        expect(states.filter((s) => s.status !== "queued" && s.status !== "sent")).toEqual([]);
        pending = states.filter((s) => s.status === "queued").map((s) => s.id);
        if (pending.length) await new Promise((r) => setTimeout(r, 500));
      }
      expect(pending).toEqual([]);
      const calls = new Map<string, number>();
      for (const r of fake.requests) calls.set(`+${r.body?.to}`, (calls.get(`+${r.body?.to}`) ?? 0) + 1);
      expect(accepted.filter((r) => calls.get(r.phone) !== 1).map((r) => r.phone)).toEqual([]);
      expect([...calls].filter(([, count]) => count > 1)).toEqual([]);
      expect(server.process.exitCode).toBeNull();
    } finally {
      sending = false;
      await Promise.all(senders);
    }
  }, 300_000);

  it("stops by its deadline when the database stops answering mid-request, exiting 1 and naming the step", async () => {
    const key = fx.delivery!.keys.live;
    cluster.pause();
    try {
      // A request whose query the frozen database never answers, then SIGTERM.
      const stuck = fetch(`${server.url}/api/v1/contacts`, { headers: { Authorization: `Bearer ${key}` } }).catch(() => null);
      await new Promise((r) => setTimeout(r, 500));
      const startedAt = Date.now();
      const code = await server.stop("SIGTERM");
      const ms = Date.now() - startedAt;
      expect(code).toBe(1);
      expect(ms).toBeGreaterThanOrEqual(SHUTDOWN_S * 1000 - 500);
      expect(ms).toBeLessThan(SHUTDOWN_S * 1000 + 10_000);
      expect(server.output()).toMatch(/shutdown did not finish in time: exiting/);
      expect(server.output()).toMatch(/"stage":"finishing requests in flight"/);
      await stuck;
    } finally {
      cluster.resume();
    }
  }, 60_000);
});
