import pg from "pg";
import Stripe from "stripe";
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import { api, fixtures } from "../support/client.ts";
import { dashboardMutation, dashboardQuery } from "../support/dashboard.ts";
import { startReceiver, type Received, type Receiver } from "../support/webhook-receiver.ts";
import { until } from "../support/until.ts";

// Signed webhooks (issue "Signed webhooks", D30 to D34) over real HTTP: events recorded by the
// API reach a real receiver on loopback through the pipeline. The server of these tests times
// a delivery out after 2 s and retries after 1 s (WEBHOOK_TIMEOUT_SECONDS,
// WEBHOOK_RETRY_SCHEDULE in e2e/support/global-setup.ts); D33's real schedule is unit-tested.
const { engine, env } = inject("api");
const ws = fixtures().webhooks!;
const client = api(ws.keys.live);
const stripe = new Stripe("sk_test_unused");

type Endpoint = { id: string; url: string; enabled: boolean; disabled_reason: string | null; events: string[]; secrets: unknown[] };
type Delivery = {
  id: string;
  event_id: string;
  event: string;
  status: string;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  attempts_log: { status_code: number | null; error: string | null; duration_ms: number; response_excerpt: string | null }[];
  body: string | null;
};

const mutation = <T>(path: string, input: unknown) => dashboardMutation<T>(ws.id, path, input);
const query = <T>(path: string, input: unknown) => dashboardQuery<T>(ws.id, path, input);

let receiver: Receiver;
const created: string[] = [];

async function register(input: { events?: string[]; url?: string } = {}) {
  const res = await mutation<{ id: string; secret: string; endpoint: Endpoint }>("webhooks.create", { url: receiver.url, ...input });
  created.push(res.id);
  return res;
}

let seq = 0;
/** A new contact: its `contato.criado` event goes to every subscribed endpoint. */
async function newContact(): Promise<string> {
  const res = await client.post("/contacts", { email: `wh${Date.now()}.${seq++}@example.com` });
  expect(res.status).toBe(200);
  return res.body.id as string;
}

const about = (contactId: string) => (r: Received) => r.body?.data?.id === contactId;

async function deliveriesOf(endpointId: string, status?: string) {
  return (await query<{ items: (Delivery & { last_attempt: unknown })[] }>("webhooks.deliveries", { endpoint_id: endpointId, status }))
    .items;
}

beforeAll(async () => {
  receiver = await startReceiver();
});
afterEach(async () => {
  // Endpoints of one test must not receive the next test's events.
  while (created.length) await mutation("webhooks.delete", { endpoint_id: created.pop() });
  receiver.respond(() => ({ status: 200 }));
});
afterAll(async () => {
  await receiver.close();
});

describe("registration (D30)", () => {
  it("answers the secret once as whsec_ + 32 characters, and lists the endpoint without it", async () => {
    const { id, secret, endpoint } = await register({ events: ["contato.criado"] });
    expect(id).toMatch(/^we_/);
    expect(secret).toMatch(/^whsec_[0-9A-Za-z]{32}$/);
    expect(endpoint).toMatchObject({ url: receiver.url, events: ["contato.criado"], enabled: true });
    const list = await query<Endpoint[]>("webhooks.list", undefined);
    const listed = list.find((e) => e.id === id)!;
    expect(listed.secrets).toHaveLength(1);
    expect(JSON.stringify(list)).not.toContain(secret);
  });

  it("refuses a URL that is not http(s), with the param", async () => {
    await expect(mutation("webhooks.create", { url: "ftp://127.0.0.1/x" })).rejects.toThrow(/"param":"url"/);
    await expect(mutation("webhooks.create", { url: "not a url" })).rejects.toThrow(/parameter_invalid/);
    await expect(mutation("webhooks.create", { url: receiver.url, events: ["mensagem.nope"] })).rejects.toThrow(/"param":"events.0"/);
  });
});

describe("delivery (D31, D32)", () => {
  it("POSTs the D31 body, signed so that Stripe's own verifier accepts it", async () => {
    const { secret } = await register();
    const contactId = await newContact();
    const [hit] = await receiver.waitFor(about(contactId));
    const header = hit!.headers["x-svc-signature"] as string;
    expect(header).toMatch(/^t=\d{10},v1=[0-9a-f]{64}$/);
    expect(Math.abs(Number(/t=(\d+)/.exec(header)![1]) - Date.now() / 1000)).toBeLessThan(30);
    // An independent implementation of the scheme: t=<unix seconds>, HMAC-SHA256 of `<t>.<raw body>`.
    const event = stripe.webhooks.constructEvent(hit!.raw, header, secret, 300) as unknown as Record<string, any>;
    expect(event).toMatchObject({ event: "contato.criado", namespace: ws.id, mode: "live", data: { id: contactId } });
    expect(Object.keys(event).sort()).toEqual(["data", "event", "id", "mode", "namespace", "timestamp", "type"]);
    expect(event.type).toBe("contato.criado");
    expect(event.id).toMatch(/^evt_/);
    expect(event.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(() => stripe.webhooks.constructEvent(hit!.raw, header, "whsec_wrong", 300)).toThrow();
    expect(() => stripe.webhooks.constructEvent(hit!.raw + " ", header, secret, 300)).toThrow();
    expect(hit!.headers["x-svc-event-id"]).toBe(event.id);
  });

  it("carries the key's mode and sends only the events an endpoint subscribed to", async () => {
    const all = await register();
    const messagesOnly = await register({ events: ["mensagem.enviada"], url: `${receiver.url}/messages-only` });
    const res = await api(ws.keys.test).post("/contacts", { email: `wh-test-mode-${Date.now()}@example.com` });
    const [hit] = await receiver.waitFor(about(res.body.id));
    expect(hit!.body.mode).toBe("test");
    expect(hit!.path).toBe("/hooks");
    await new Promise((r) => setTimeout(r, 800));
    expect(receiver.received.filter((r) => r.path.endsWith("/messages-only"))).toHaveLength(0);
    expect(await deliveriesOf(messagesOnly.id)).toHaveLength(0);
    expect((await deliveriesOf(all.id)).map((d) => d.status)).toEqual(["succeeded"]);
  });

  it("signs with the current and the rotated-out secret during the overlap (D32)", async () => {
    const { id, secret: old } = await register();
    const rotated = await mutation<{ secret: string; previous_expires_at: string }>("webhooks.rotateSecret", { endpoint_id: id });
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(Date.parse(rotated.previous_expires_at) - Date.now()).toBeGreaterThan(23.9 * 3600_000);
    const contactId = await newContact();
    const [hit] = await receiver.waitFor(about(contactId));
    const header = hit!.headers["x-svc-signature"] as string;
    expect(header.match(/v1=/g)).toHaveLength(2);
    expect(stripe.webhooks.constructEvent(hit!.raw, header, rotated.secret, 300)).toBeTruthy();
    expect(stripe.webhooks.constructEvent(hit!.raw, header, old, 300)).toBeTruthy();
    const listed = (await query<Endpoint[]>("webhooks.list", undefined)).find((e) => e.id === id)!;
    expect(listed.secrets).toHaveLength(2);
  });

  it("delivers message state changes with D31's message data", async () => {
    await register({ events: ["mensagem.enviada", "mensagem.entregue", "mensagem.lida"] });
    const test = api(ws.keys.test);
    // D35: a test message to an ordinary recipient walks queued → sent → delivered → read.
    const res = await test.post("/messages", { channel: "whatsapp", to: { phone: "+5511955550123" }, whatsapp: { body: "Hi" } });
    expect(res.status).toBe(202);
    const hits = await receiver.waitFor((r) => r.body?.data?.id === res.body.id, 3, 30_000);
    const byEvent = Object.fromEntries(hits.map((h) => [h.body.event, h.body.data]));
    expect(byEvent["mensagem.enviada"]).toEqual({
      id: res.body.id,
      channelType: "whatsapp",
      status: "sent",
      contact: expect.stringMatching(/^ct_/),
      metadata: {},
    });
    expect(hits.every((h) => h.body.mode === "test")).toBe(true);
    expect(byEvent["mensagem.lida"]).toMatchObject({ status: "read" });
    // Each succeeded at its one attempt, which its log shows (kept on the delivery's row).
    for (const h of hits) {
      const detail = await until(
        () => query<Delivery>("webhooks.delivery", { delivery_id: h.headers["x-svc-delivery-id"] as string }),
        (d) => d.status === "succeeded",
      );
      expect(detail.attempts).toBe(1);
      expect(detail.attempts_log).toMatchObject([{ status_code: 200, error: null, response_excerpt: "ok" }]);
    }
  });
});

describe("retries (D33)", () => {
  it("retries after a 500 with the same event id, and logs both attempts", async () => {
    const { id } = await register();
    let first = true;
    receiver.respond(() => (first ? ((first = false), { status: 500, body: "boom" }) : { status: 204 }));
    const contactId = await newContact();
    const hits = await receiver.waitFor(about(contactId), 2);
    expect(hits[1]!.body.id).toBe(hits[0]!.body.id);
    expect(hits[1]!.at - hits[0]!.at).toBeGreaterThanOrEqual(800);
    const [delivery] = await until(
      () => deliveriesOf(id),
      (d) => d[0]?.status === "succeeded",
    );
    const detail = await query<Delivery>("webhooks.delivery", { delivery_id: delivery!.id });
    expect(detail.attempts).toBe(2);
    expect(detail.attempts_log.map((a) => a.status_code)).toEqual([500, 204]);
    expect(detail.attempts_log[0]!.response_excerpt).toBe("boom");
    expect(detail.attempts_log[0]!.error).toMatch(/500/);
    expect(JSON.parse(detail.body!).id).toBe(hits[0]!.body.id);
  });

  it("retries after a timeout with the same event id", async () => {
    const { id } = await register();
    let first = true;
    receiver.respond(() => (first ? ((first = false), { status: 200, delayMs: 3_000 }) : { status: 200 }));
    const contactId = await newContact();
    const hits = await receiver.waitFor(about(contactId), 2);
    expect(hits[1]!.body.id).toBe(hits[0]!.body.id);
    const [delivery] = await until(
      () => deliveriesOf(id),
      (d) => d[0]?.status === "succeeded",
    );
    const detail = await query<Delivery>("webhooks.delivery", { delivery_id: delivery!.id });
    expect(detail.attempts_log[0]).toMatchObject({ status_code: null, error: expect.stringMatching(/no answer within 2 s/) });
    expect(detail.attempts_log[0]!.duration_ms).toBeGreaterThanOrEqual(1_900);
    expect(detail.attempts_log[1]!.status_code).toBe(200);
  });

  it("does not follow redirects: a 3xx is a failed attempt", async () => {
    const { id } = await register();
    receiver.respond((r) => (r.path === "/hooks" ? { status: 302, headers: { location: `${receiver.url}/elsewhere` } } : { status: 200 }));
    const contactId = await newContact();
    await receiver.waitFor(about(contactId), 2);
    const [delivery] = await deliveriesOf(id);
    expect(delivery!.status).toBe("pending");
    expect(delivery!.last_error).toMatch(/Redirects are not followed \(302/);
    expect(receiver.received.filter((r) => r.path === "/hooks/elsewhere")).toHaveLength(0);
    // The log's filters: a pending delivery is found from its job, a failed one by its error.
    expect((await deliveriesOf(id, "pending")).map((d) => d.id)).toEqual([delivery!.id]);
    expect(await deliveriesOf(id, "failed")).toEqual([]);
    expect(await deliveriesOf(id, "succeeded")).toEqual([]);
  });

  it("marks a delivery failed after nine attempts, and replays every failed delivery of a time range", async () => {
    const { id } = await register();
    const from = new Date(Date.now() - 1000).toISOString();
    receiver.respond(() => ({ status: 503 }));
    const contactId = await newContact();
    const [failed] = await until(
      () => deliveriesOf(id, "failed"),
      (d) => d.length === 1,
      30_000,
    );
    expect(failed!.attempts).toBe(9);
    expect(receiver.received.filter(about(contactId))).toHaveLength(9);
    receiver.respond(() => ({ status: 200 }));
    const replay = await mutation<{ replayed: number }>("webhooks.replayFailed", {
      endpoint_id: id,
      from,
      to: new Date(Date.now() + 1000).toISOString(),
    });
    expect(replay.replayed).toBe(1);
    const hits = await receiver.waitFor(about(contactId), 10);
    expect(new Set(hits.map((h) => h.body.id)).size).toBe(1);
    await until(
      () => deliveriesOf(id),
      (d) => d[0]?.status === "succeeded" && d[0].attempts === 10,
    );
  });
});

describe("replay and disable", () => {
  it("replays one delivery with the same event id", async () => {
    const { id } = await register();
    const contactId = await newContact();
    const [hit] = await receiver.waitFor(about(contactId));
    const [delivery] = await until(
      () => deliveriesOf(id),
      (d) => d[0]?.status === "succeeded",
    );
    await expect(mutation("webhooks.replay", { delivery_id: "whd_missing" })).rejects.toThrow(/404|resource_missing/);
    await mutation("webhooks.replay", { delivery_id: delivery!.id });
    const hits = await receiver.waitFor(about(contactId), 2);
    expect(hits[1]!.body.id).toBe(hit!.body.id);
    expect(hits[1]!.raw).toBe(hit!.raw);
    // The log keeps both successes: the one kept on the delivery's row moved to the log's rows
    // when it was replayed, and the second took its place.
    const detail = await until(
      () => query<Delivery>("webhooks.delivery", { delivery_id: delivery!.id }),
      (d) => d.status === "succeeded" && d.attempts_log.length === 2,
    );
    expect(detail.attempts_log.map((a) => [a.status_code, a.error, a.response_excerpt])).toEqual([
      [200, null, "ok"],
      [200, null, "ok"],
    ]);
    expect((await deliveriesOf(id))[0]!.last_attempt).toMatchObject({ status_code: 200, error: null });
  });

  it("sends nothing once the endpoint is disabled, not even pending retries", async () => {
    const { id } = await register();
    receiver.respond(() => ({ status: 500 }));
    const pendingContact = await newContact();
    await receiver.waitFor(about(pendingContact));
    await mutation("webhooks.update", { endpoint_id: id, enabled: false });
    const laterContact = await newContact();
    await new Promise((r) => setTimeout(r, 2_500));
    expect(receiver.received.filter(about(pendingContact))).toHaveLength(1);
    expect(receiver.received.filter(about(laterContact))).toHaveLength(0);
    const deliveries = await deliveriesOf(id);
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({ status: "failed", last_error: "The endpoint is disabled." });
    await expect(mutation("webhooks.sendTestEvent", { endpoint_id: id })).rejects.toThrow(/endpoint_disabled/);
    const listed = (await query<Endpoint[]>("webhooks.list", undefined)).find((e) => e.id === id)!;
    expect(listed).toMatchObject({ enabled: false, disabled_reason: "manual" });
  });

  it("sends a test event to one endpoint only, signed like any delivery", async () => {
    const one = await register();
    await register({ url: `${receiver.url}/other` });
    const sent = await mutation<{ delivery_id: string; event_id: string }>("webhooks.sendTestEvent", {
      endpoint_id: one.id,
      event: "mensagem.falhou",
    });
    const [hit] = await receiver.waitFor((r) => r.body?.id === sent.event_id);
    expect(hit!.path).toBe("/hooks");
    const event = stripe.webhooks.constructEvent(hit!.raw, hit!.headers["x-svc-signature"] as string, one.secret) as unknown as Record<
      string,
      any
    >;
    expect(event).toMatchObject({
      event: "mensagem.falhou",
      mode: "test",
      namespace: ws.id,
      data: { status: "failed", error: expect.any(String) },
    });
    await new Promise((r) => setTimeout(r, 500));
    expect(receiver.received.filter((r) => r.body?.id === sent.event_id)).toHaveLength(1);
  });

  it.runIf(engine === "postgres")("disables an endpoint whose deliveries have all failed for 5 days (D33)", async () => {
    const { id } = await register();
    const db = new pg.Client({ connectionString: env.DATABASE_URL });
    await db.connect();
    try {
      await db.query(`UPDATE webhook_endpoints SET failing_since = now() - interval '5 days 1 minute' WHERE id = $1`, [id]);
    } finally {
      await db.end();
    }
    receiver.respond(() => ({ status: 500 }));
    const contactId = await newContact();
    await receiver.waitFor(about(contactId));
    const listed = await until(
      async () => (await query<Endpoint[]>("webhooks.list", undefined)).find((e) => e.id === id)!,
      (e) => !e.enabled,
    );
    expect(listed.disabled_reason).toBe("failing");
    await new Promise((r) => setTimeout(r, 1_500));
    expect(receiver.received.filter(about(contactId))).toHaveLength(1);
  });

  it("keeps an endpoint's failure streak at its first failure and ends it at a success", async () => {
    const { id } = await register();
    let n = 0;
    receiver.respond(() => (n++ === 0 ? { status: 500 } : { status: 200 }));
    const contactId = await newContact();
    await receiver.waitFor(about(contactId));
    const failing = await until(
      async () => (await query<(Endpoint & { failing_since: string | null })[]>("webhooks.list", undefined)).find((e) => e.id === id)!,
      (e) => e.failing_since !== null,
    );
    expect(failing.enabled).toBe(true);
    await until(
      async () => (await query<(Endpoint & { failing_since: string | null })[]>("webhooks.list", undefined)).find((e) => e.id === id)!,
      (e) => e.failing_since === null,
    );
  });
});
