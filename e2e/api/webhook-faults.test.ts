import { execFileSync } from "node:child_process";
import { freePort } from "../support/free-port.ts";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api } from "../support/client.ts";
import { freshDatabase, seedFixtures, queryDatabase } from "../support/database.ts";
import type { Fixtures } from "../support/fixtures.ts";
import { ROOT, START_BUDGET_MS, startServer, type RunningServer } from "../support/server.ts";
import { MAX_IN_FLIGHT_PER_ENDPOINT } from "../../server/webhooks/deliver-webhook.ts";
import { until } from "../support/until.ts";
import { startReceiver, type Receiver } from "../support/webhook-receiver.ts";

// Webhooks under faults (issue "Signed webhooks", Done means), on each engine with its own
// database and servers: D34's check at delivery time (a server without ALLOW_PRIVATE_WEBHOOKS
// refuses an endpoint on loopback when it connects), and a receiver that is down while the
// server is killed with SIGKILL and started again: every event still arrives at least once;
// and a receiver that holds its requests open gets at most 10 at once from the server (D49's
// MAX_IN_FLIGHT_PER_ENDPOINT), while another endpoint's deliveries go on arriving.
const engine = inject("api").engine;
let database: Awaited<ReturnType<typeof freshDatabase>>;
let fx: Fixtures;
const servers: RunningServer[] = [];
const receivers: Receiver[] = [];

const env = (extra: Record<string, string>) => ({ ...database.env, PIPELINE: "inline", PIPELINE_LEASE_SECONDS: "3", ...extra });

function svc(args: string[], extra: Record<string, string> = {}): Record<string, string> {
  const out = execFileSync(process.execPath, ["bin/svc.mjs", ...args, "--json"], {
    cwd: ROOT,
    env: { ...process.env, ...database.env, ALLOW_PRIVATE_WEBHOOKS: "1", ...extra },
    encoding: "utf8",
  });
  return JSON.parse(out) as Record<string, string>;
}

const query = (sql: string, params: unknown[] = []) => queryDatabase(database.env, sql, params);

async function start(extra: Record<string, string>): Promise<RunningServer> {
  const server = await startServer(env(extra));
  servers.push(server);
  return server;
}

async function newContacts(url: string, key: string, count: number, tag: string): Promise<string[]> {
  const client = api(key, url);
  const ids: string[] = [];
  for (let i = 0; i < count; i += 10) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(10, count - i) }, async (_, j) => {
        const res = await client.post("/contacts", { email: `${tag}${i + j}@example.com` });
        expect(res.status).toBe(200);
        return res.body.id as string;
      }),
    );
    ids.push(...batch);
  }
  return ids;
}

beforeAll(async () => {
  database = await freshDatabase(engine, `whfault_${engine}`, { migrated: true });
  fx = seedFixtures(database.env);
});

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop("SIGKILL")));
  await Promise.all(receivers.map((r) => r.close()));
  await database?.drop();
});

describe("webhook faults", () => {
  it(
    "refuses at delivery time an endpoint that resolves to a private address (D34)",
    async () => {
      const receiver = await startReceiver();
      receivers.push(receiver);
      // Registered while private addresses were allowed; the server that delivers does not allow them.
      // The address given as such is refused before connecting; the host name, by the
      // connection's own look-up (the HTTP client's pool checks each address it connects to).
      const ids = [receiver.url, receiver.url.replace("127.0.0.1", "localhost")].map(
        (url) => svc(["webhook", "create", "--workspace", fx.other!.id, "--url", url]).id as string,
      );
      const server = await start({ ALLOW_PRIVATE_WEBHOOKS: "0" });
      const [contact] = await newContacts(server.url, fx.other!.keys.live!, 1, "ssrf");
      await new Promise((r) => setTimeout(r, 2_000));
      await server.stop();
      expect(receiver.received).toHaveLength(0);
      for (const id of ids) {
        const attempts = await query(
          `SELECT a.status_code, a.error FROM webhook_attempts a
           JOIN webhook_deliveries d ON d.workspace_id = a.workspace_id AND d.id = a.delivery_id
           WHERE d.workspace_id = $1 AND d.endpoint_id = $2`,
          [fx.other!.id, id],
        );
        expect(attempts.length).toBeGreaterThanOrEqual(1);
        expect(attempts[0]).toMatchObject({ status_code: null, error: expect.stringContaining("private address") });
        const [delivery] = await query(`SELECT status FROM webhook_deliveries WHERE endpoint_id = $1`, [id]);
        expect(delivery!.status).toBe("pending");
      }
      expect(contact).toMatch(/^ct_/);
    },
    START_BUDGET_MS + 60_000,
  );

  it(
    "delivers every event at least once when the receiver was down and the server was killed meanwhile",
    async () => {
      const port = await freePort();
      const { secret } = svc(["webhook", "create", "--workspace", fx.webhooks!.id, "--url", `http://127.0.0.1:${port}/hooks`]);
      const schedule = { ALLOW_PRIVATE_WEBHOOKS: "1", WEBHOOK_RETRY_SCHEDULE: "1,2,4,8,8,8,8,8", WEBHOOK_TIMEOUT_SECONDS: "2" };

      const doomed = await start(schedule);
      const contacts = await newContacts(doomed.url, fx.webhooks!.keys.live!, 40, "down");
      // The receiver is down: first attempts fail and retries are scheduled; then the process dies.
      await new Promise((r) => setTimeout(r, 2_500));
      await doomed.stop("SIGKILL");
      const failed = await query(`SELECT count(*)::int AS n FROM webhook_attempts WHERE error IS NOT NULL`);
      expect(failed[0]!.n as number).toBeGreaterThanOrEqual(40);

      const receiver = await startReceiver({ port });
      receivers.push(receiver);
      const revived = await start(schedule);
      const later = await newContacts(revived.url, fx.webhooks!.keys.live!, 10, "up");
      const all = [...contacts, ...later];
      await receiver.waitFor((r) => all.includes(r.body?.data?.id), all.length, 60_000).catch(() => []);
      const stripe = new Stripe("sk_test_unused");
      const eventsByContact = new Map<string, Set<string>>();
      for (const r of receiver.received) {
        const event = stripe.webhooks.constructEvent(r.raw, r.headers["x-svc-signature"] as string, secret!, 300) as unknown as {
          id: string;
          data: { id: string };
        };
        eventsByContact.set(event.data.id, new Set([...(eventsByContact.get(event.data.id) ?? []), event.id]));
      }
      for (const id of all) {
        // At least once, and every copy is the same event.
        expect(eventsByContact.get(id)?.size, id).toBe(1);
      }
      await revived.stop();
      const states = await query(`SELECT status, count(*)::int AS n FROM webhook_deliveries WHERE workspace_id = $1 GROUP BY status`, [
        fx.webhooks!.id,
      ]);
      expect(states).toEqual([{ status: "succeeded", n: all.length }]);
      const jobs = await query(`SELECT count(*)::int AS n FROM jobs WHERE kind = 'webhook.deliver' AND workspace_id = $1`, [
        fx.webhooks!.id,
      ]);
      expect(jobs[0]!.n).toBe(0);
    },
    2 * START_BUDGET_MS + 90_000,
  ); // two servers, then up to 60 s for the deliveries

  it(
    "sends one endpoint at most 10 deliveries at once; the rest wait without an attempt, and another endpoint's arrive meanwhile (D49)",
    async () => {
      // One server: the cap is per process. Its timeout outlasts the requests the receiver holds.
      const server = await start({ ALLOW_PRIVATE_WEBHOOKS: "1", WEBHOOK_TIMEOUT_SECONDS: "60" });
      const [slow, quick] = [await startReceiver(), await startReceiver()];
      receivers.push(slow, quick);
      const setUp = (name: string, url: string) => {
        const { workspace } = svc(["workspace", "create", "--name", name, "--plan", "pro", "--rate-limit", "100000"]);
        const endpoint = svc(["webhook", "create", "--workspace", workspace!, "--url", url]).id!;
        return { workspace: workspace!, endpoint, key: svc(["key", "create", "--workspace", workspace!, "--mode", "live"]).key! };
      };
      const [a, b] = [setUp("in-flight slow", slow.url), setUp("in-flight quick", quick.url)];
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      slow.respond(() => ({ status: 200, until: held })); // every request held open until released

      const contacts = await newContacts(server.url, a.key, 40, "inflight");
      await slow.waitFor(() => true, MAX_IN_FLIGHT_PER_ENDPOINT, 60_000);
      // While those are held, another workspace's endpoint gets its deliveries.
      const started = Date.now();
      const others = await newContacts(server.url, b.key, 5, "beside");
      await quick.waitFor((r) => others.includes(r.body?.data?.id), others.length, 60_000);
      console.log(`webhooks: another endpoint's 5 deliveries arrived ${Date.now() - started} ms after their events, beside 10 held`);
      // Still exactly the first 10 at the slow endpoint; the other 30 wait, no attempt counted.
      expect(slow.received).toHaveLength(MAX_IN_FLIGHT_PER_ENDPOINT);
      expect(slow.open()).toBe(MAX_IN_FLIGHT_PER_ENDPOINT);
      const waiting = await query(
        `SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1 AND status = 'pending' AND attempts = 0`,
        [a.endpoint],
      );
      expect(waiting[0]!.n).toBe(40);

      // Let them go; the rest are answered after a moment each, and still come 10 at a time.
      slow.respond(() => ({ status: 200, delayMs: 200 }));
      release();
      await slow.waitFor((r) => contacts.includes(r.body?.data?.id), 40, 120_000);
      console.log(`webhooks: most requests held open at once by the slow endpoint: ${slow.maxOpen()} (of 40)`);
      expect(slow.maxOpen()).toBe(MAX_IN_FLIGHT_PER_ENDPOINT);
      expect(new Set(slow.received.map((r) => r.body?.data?.id)).size).toBe(40);
      await until(
        () => query(`SELECT status FROM webhook_deliveries WHERE endpoint_id = $1`, [a.endpoint]),
        (rows) => rows.length === 40 && rows.every((r) => r.status === "succeeded"),
        30_000,
      );
      // Each delivered once, on its first attempt: waiting for a slot was never an attempt.
      const attempts = await query(
        `SELECT d.attempts, count(a.id)::int + (d.succeeded_at IS NOT NULL)::int AS logged
         FROM webhook_deliveries d LEFT JOIN webhook_attempts a ON a.workspace_id = d.workspace_id AND a.delivery_id = d.id
         WHERE d.workspace_id = $1 AND d.endpoint_id = $2 GROUP BY d.id, d.attempts, d.succeeded_at`,
        [a.workspace, a.endpoint],
      );
      expect(attempts.every((r) => r.attempts === 1 && r.logged === 1)).toBe(true);
      await server.stop();
    },
    START_BUDGET_MS + 240_000,
  );
});
