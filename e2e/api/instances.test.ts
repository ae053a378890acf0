import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api } from "../support/client.ts";
import pg from "pg";
import { freshDatabase, queryDatabase, seedFixtures } from "../support/database.ts";
import { startFakeWhatsApp, type FakeWhatsApp } from "../support/fake-whatsapp.ts";
import { HELLO, HELLO_TEMPLATE } from "../support/whatsapp-window.ts";
import { FIXTURE_ADMIN, type Fixtures } from "../support/fixtures.ts";
import { svcJson } from "../support/svc.ts";
import { startServer, startServers, type RunningServer } from "../support/server.ts";
import { signIn } from "../support/sign-in.ts";
import { poll } from "../support/until.ts";

// Three instances on one PostgreSQL database (docs/deploy.md "One process or many"), each
// with the pipeline inline, as a deployment behind a load balancer runs them: the per-key
// rate limit is one budget across them (D24), a key revoked through one is refused by the
// others at once, and each accepted message reaches the provider exactly once whichever
// instance accepted it and whichever dispatched it (D47).

const engine = inject("api").engine;
let database: Awaited<ReturnType<typeof freshDatabase>>;
let fake: FakeWhatsApp;
let fx: Fixtures;
let servers: RunningServer[] = [];

beforeAll(async () => {
  if (engine !== "postgres") return;
  database = await freshDatabase(engine, "instances");
  const env = { ...process.env, ...database.env };
  // Seeding migrates the database first, so the three servers start with nothing to apply.
  fx = seedFixtures(env);
  fake = await startFakeWhatsApp({ latencyMs: 50 });
  // The dispatched messages go to new contacts (window closed): a template (D43).
  fake.templates.set("5550078", [HELLO_TEMPLATE]);
  // prettier-ignore
  await svcJson({ ...database.env, ALLOW_PRIVATE_WEBHOOKS: "1" },
    "channel", "connect", "--workspace", fx.delivery!.id, "--type", "whatsapp", "--phone-number-id", "5550077", "--waba-id", "5550078",
    "--access-token", "t", "--app-secret", "s", "--verify-token", "v", "--api-base-url", fake.url);
  const serverEnv = { ...database.env, ALLOW_PRIVATE_WEBHOOKS: "1", PIPELINE: "inline" };
  servers = await startServers(3, serverEnv);
}, 600_000);

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  await fake?.close();
  await database?.drop();
});

describe.runIf(engine === "postgres")("three instances on one PostgreSQL", () => {
  it(
    "wake each other's pipelines: a job one inserts is announced by its own statement (D87: no trigger)",
    { timeout: 120_000 },
    async () => {
      // No trigger on any table: the wake-up is the code's.
      const triggers = await queryDatabase(database.env, `SELECT tgname FROM pg_trigger WHERE NOT tgisinternal`);
      expect(triggers).toEqual([]);
      // An instance with no pipeline of its own accepts a message; a listener on another
      // connection, as every instance's loop listens, hears the job at the commit.
      const api_only = await startServer({ ...database.env, ALLOW_PRIVATE_WEBHOOKS: "1", PIPELINE: "off" });
      const listener = new pg.Client({ connectionString: database.env.DATABASE_URL });
      await listener.connect();
      try {
        const heard: string[] = [];
        listener.on("notification", (n) => heard.push(n.channel));
        await listener.query("LISTEN svc_jobs");
        const res = await api(fx.delivery!.keys.live, api_only.url).post("/messages", {
          channel: "whatsapp",
          to: { phone: "+5511977099999" },
          whatsapp: HELLO,
        });
        expect(res.status).toBe(202);
        await poll(
          async () => heard.length,
          (n) => n > 0,
          10_000,
          20,
        );
        expect(heard[0]).toBe("svc_jobs");
        // One of the instances with the pipeline sends it (the one that accepted it runs none).
        const id = res.body.id as string;
        const status = await poll(
          async () => (await api(fx.delivery!.keys.live, servers[0]!.url).get(`/messages/${id}`)).body.status as string,
          (s) => s !== "queued",
          60_000,
          100,
        );
        expect(["sent", "delivered", "read"]).toContain(status);
      } finally {
        await listener.end();
        await api_only.stop();
      }
    },
  );

  it("share one rate limit per key: the budget is spent across instances, and each refuses once it is", async () => {
    // The `burst` workspace allows 10 requests a minute per key. The sliding window weighs
    // the previous minute, so the burst starts well inside a minute (not within 5 s of its end).
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 55_000) await new Promise((r) => setTimeout(r, 60_000 - intoMinute + 100));
    const statuses: { instance: number; status: number }[] = [];
    for (let i = 0; i < 16; i++) {
      const instance = i % 3;
      statuses.push({ instance, status: (await api(fx.burst!.keys.a, servers[instance]!.url).get("/")).status });
    }
    expect(statuses.slice(0, 10).map((s) => s.status)).toEqual(Array(10).fill(200));
    expect(statuses.slice(10).map((s) => s.status)).toEqual(Array(6).fill(429));
    // Every instance refused: none kept a budget of its own.
    expect(new Set(statuses.slice(10).map((s) => s.instance))).toEqual(new Set([0, 1, 2]));
  });

  it("refuse a key on every instance as soon as one of them revoked it", async () => {
    const key = fx.pages!.keys.test!;
    for (const s of servers) expect((await api(key, s.url).get("/")).status).toBe(200);
    const cookie = await signIn(servers[0]!.url, FIXTURE_ADMIN.email, FIXTURE_ADMIN.password);
    const revoked = await fetch(`${servers[0]!.url}/api/trpc/keys.revoke`, {
      method: "POST",
      headers: { Cookie: cookie, "x-svc-workspace": fx.pages!.id, "Content-Type": "application/json" },
      body: JSON.stringify({ id: fx.pages!.keyIds.test }),
    });
    expect(revoked.status).toBe(200);
    // At once: keys are looked up in the database on each request, with no cache per instance.
    for (const s of servers) {
      const res = await api(key, s.url).get("/");
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe("invalid_api_key");
    }
  });

  it("dispatch each message exactly once, whichever instance accepted it", { timeout: 240_000 }, async () => {
    const phones = Array.from({ length: 30 }, (_, i) => `+55119770${String(i).padStart(5, "0")}`);
    const accepted = await Promise.all(
      phones.map(async (phone, i) => {
        const res = await api(fx.delivery!.keys.live, servers[i % 3]!.url).post("/messages", {
          channel: "whatsapp",
          to: { phone },
          whatsapp: HELLO,
        });
        expect(res.status).toBe(202);
        return res.body.id as string;
      }),
    );
    const client = api(fx.delivery!.keys.live, servers[0]!.url);
    const states = await poll(
      () => Promise.all(accepted.map(async (id) => (await client.get(`/messages/${id}`)).body.status as string)),
      (all) => all.every((s) => s !== "queued"),
      180_000,
      500,
    );
    expect(states.filter((s) => s === "queued")).toEqual([]);
    expect(states.filter((s) => s === "failed")).toEqual([]);
    const calls = new Map<string, number>();
    for (const r of fake.requests) calls.set(`+${r.body?.to}`, (calls.get(`+${r.body?.to}`) ?? 0) + 1);
    expect(phones.map((p) => calls.get(p) ?? 0)).toEqual(phones.map(() => 1));
  });
});
