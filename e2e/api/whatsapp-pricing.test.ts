import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api, fixtures } from "../support/client.ts";
import { signIn as signInDashboard } from "../support/dashboard.ts";
import { queryDatabase } from "../support/database.ts";
import { FIXTURE_ADMIN } from "../support/fixtures.ts";
import { signIn } from "../support/sign-in.ts";
import { postWebhook, startFakeWhatsApp, statusWebhook, type FakeWhatsApp } from "../support/fake-whatsapp.ts";
import { svc, svcJson } from "../support/svc.ts";
import { poll } from "../support/until.ts";
import { HELLO, HELLO_TEMPLATE } from "../support/whatsapp-window.ts";

// D89 over the real paths: the local Cloud API reports each message's pricing as Meta's 2026
// JSON does; the message keeps its latest one; GET /usage counts the month's messages by
// category, charged or free; `svc workspace update --whatsapp-price … --currency` sets the
// prices (refusing bad input with the flag and writing nothing), as the dashboard's settings
// do through the same service (bad input refused at its param, support users refused, an audit
// entry per change), and usage and a flow version's statistics then estimate what they cost.
const ws = fixtures().pricing!;
const live = api(ws.keys.live);
const { baseUrl, env } = inject("api");
const phoneNumberId = String(100_000_000 + Math.floor(Math.random() * 899_999_999));
const wabaId = String(200_000_000 + Math.floor(Math.random() * 799_999_999));
const appSecret = `secret-${randomUUID()}`;
const callback = `${baseUrl}/api/providers/whatsapp`;
let fake: FakeWhatsApp;

let n = 0;
const phone = () => `+55119${String(40_000_000 + ((Date.now() + n++ * 7919) % 59_999_999)).slice(-8)}`;

beforeAll(async () => {
  fake = await startFakeWhatsApp({ latencyMs: 5 });
  fake.templates.set(wabaId, [HELLO_TEMPLATE]);
  // prettier-ignore
  await svcJson({ ...env, ALLOW_PRIVATE_WEBHOOKS: "1" }, "channel", "connect", "--workspace", ws.id, "--type", "whatsapp", "--phone-number-id", phoneNumberId,
    "--waba-id", wabaId, "--access-token", "t", "--app-secret", appSecret, "--verify-token", "v", "--api-base-url", fake.url);
}, 120_000);

afterAll(async () => {
  await fake?.close();
});

/** A live template send, once the Cloud API took it: its id and wamid. */
async function sent(): Promise<{ id: string; wamid: string }> {
  const res = await live.post("/messages", { channel: "whatsapp", to: { phone: phone() }, whatsapp: HELLO });
  expect(res.status, res.text).toBe(202);
  const message = await poll(
    () => live.get(`/messages/${res.body.id}`),
    (r) => r.body.status === "sent",
    20_000,
  );
  return { id: res.body.id, wamid: message.body.provider_message_id };
}

async function report(wamid: string, status: "delivered" | "read", pricing: { category: string; type: string }) {
  const res = await postWebhook(callback, statusWebhook(phoneNumberId, [{ wamid, status, pricing }]), appSecret);
  expect(res.status).toBe(200);
}

const pricingOf = (id: string, want: unknown) =>
  poll(
    () => live.get(`/messages/${id}`),
    (r) => JSON.stringify(r.body.pricing) === JSON.stringify(want),
    10_000,
  );

describe("what a WhatsApp message costs (D89)", () => {
  it("keeps each message's latest pricing and counts the month's messages by category, charged or free", async () => {
    const before = (await live.get("/usage")).body;
    expect(before.whatsapp_cost).toBeUndefined();
    const a = await sent();
    const b = await sent();
    // Null until a report carries it.
    expect((await live.get(`/messages/${a.id}`)).body.pricing).toBeNull();
    await report(a.wamid, "delivered", { category: "marketing", type: "regular" });
    await report(b.wamid, "delivered", { category: "service", type: "free_customer_service" });
    await pricingOf(a.id, { category: "marketing", type: "regular" });
    // A later report's new values are kept as they come, and move the count with them.
    await report(b.wamid, "read", { category: "utility", type: "regular" });
    await pricingOf(b.id, { category: "utility", type: "regular" });
    // The same pricing again counts nothing more.
    await report(a.wamid, "read", { category: "marketing", type: "regular" });
    await poll(
      () => live.get(`/messages/${a.id}`),
      (r) => r.body.status === "read",
      10_000,
    );
    // Lists carry it too.
    const listed = (await live.get(`/messages?limit=10`)).body as { id: string; pricing: unknown }[];
    expect(listed.find((m) => m.id === b.id)?.pricing).toEqual({ category: "utility", type: "regular" });

    const usage = (await live.get("/usage")).body;
    const grew = (category: string, kind: "charged" | "free") =>
      (usage.whatsapp_pricing[category]?.[kind] ?? 0) - (before.whatsapp_pricing[category]?.[kind] ?? 0);
    expect([grew("marketing", "charged"), grew("utility", "charged"), grew("service", "free"), grew("service", "charged")]).toEqual([
      1, 1, 0, 0,
    ]);
    expect(usage.whatsapp - before.whatsapp).toBe(2);
  }, 90_000);

  it("sets the prices from the CLI, refusing bad input with the flag and writing nothing; usage then estimates the cost", async () => {
    const cli = (...args: string[]) => svc(env, "workspace", "update", "--workspace", ws.id, ...args, "--json");
    const refusals: [string[], RegExp][] = [
      [["--whatsapp-price", "marketing", "--currency", "USD"], /--whatsapp-price must be CATEGORY=AMOUNT/],
      [["--whatsapp-price", "marketing=-1", "--currency", "USD"], /--whatsapp-price must be CATEGORY=AMOUNT/],
      [["--whatsapp-price", "Marketing=0.06", "--currency", "USD"], /--whatsapp-price must be CATEGORY=AMOUNT/],
      [["--whatsapp-price", "marketing=0.0000001", "--currency", "USD"], /--whatsapp-price must be CATEGORY=AMOUNT/],
      [["--whatsapp-price", "marketing=0.06", "--currency", "US"], /--currency must be an ISO 4217 code/],
      [["--whatsapp-price", "marketing=0.06"], /--currency is needed/],
    ];
    for (const [args, message] of refusals) {
      const run = await cli(...args);
      expect(run.code, run.stderr).toBe(2);
      expect(JSON.parse(run.stdout).error).toMatchObject({ code: "usage", message: expect.stringMatching(message) });
    }
    expect((await live.get("/usage")).body.whatsapp_cost).toBeUndefined();

    const set = await svcJson(env, "workspace", "update", "--workspace", ws.id, "--whatsapp-price", "marketing=0.0625",
      "--whatsapp-price", "utility=0.0068", "--currency", "usd"); // prettier-ignore
    expect(set).toMatchObject({ workspace: ws.id, whatsapp_prices: { marketing: "0.0625", utility: "0.0068" }, currency: "USD" });
    const usage = (await live.get("/usage")).body;
    const charged = (c: string) => usage.whatsapp_pricing[c]?.charged ?? 0;
    expect(usage.whatsapp_cost).toEqual({
      amount: Math.round((charged("marketing") * 0.0625 + charged("utility") * 0.0068) * 1e6) / 1e6,
      currency: "USD",
    });
    expect(usage.whatsapp_cost.amount).toBeGreaterThan(0);
  }, 120_000);

  it("gives each flow version the estimated cost of the messages its steps sent", async () => {
    await svcJson(env, "workspace", "update", "--workspace", ws.id, "--whatsapp-price", "utility=0.0068", "--currency", "USD");
    const flow = await live.post("/flows", {
      name: `Costs ${randomUUID()}`,
      status: "active",
      steps: [{ id: "hello", type: "send", channel: "whatsapp", whatsapp: HELLO }],
    });
    expect(flow.status, flow.text).toBe(201);
    const enroll = async () => {
      const run = await live.post(`/flows/${flow.body.id}/enroll`, { to: { phone: phone() } });
      expect(run.status, run.text).toBe(201);
      const listed = await poll(
        () => live.get(`/messages?contact_id=${run.body.contact_id}`),
        (r) => r.body?.[0]?.status === "sent",
        30_000,
      );
      return listed.body[0] as { id: string; provider_message_id: string };
    };
    const [one, two] = [await enroll(), await enroll()];
    await report(one.provider_message_id, "delivered", { category: "utility", type: "regular" });
    await report(two.provider_message_id, "delivered", { category: "utility", type: "free_entry_point" });
    await pricingOf(two.id, { category: "utility", type: "free_entry_point" });
    const stats = await poll(
      () => live.get(`/flows/${flow.body.id}/stats`),
      (r) => r.body.versions?.[0]?.cost?.amount > 0,
      10_000,
    );
    // One charged utility message; the free one costs nothing.
    expect(stats.body.versions[0]).toMatchObject({ version: 1, cost: { amount: 0.0068, currency: "USD" } });
  }, 120_000);

  it("sets the prices from the dashboard's settings: bad input refused at its param, support users refused, each change audited", async () => {
    /** settings.update as the dashboard posts it, signed in with `cookie`: its status and tRPC body. */
    const update = async (cookie: string, input: unknown) => {
      const res = await fetch(`${baseUrl}/api/trpc/settings.update`, {
        method: "POST",
        headers: { Cookie: cookie, "x-svc-workspace": ws.id, "Content-Type": "application/json" },
        body: JSON.stringify(input),
      });
      return { status: res.status, body: (await res.json()) as { result?: { data: unknown }; error?: { data: Record<string, unknown> } } };
    };
    const audited = async () =>
      (
        await queryDatabase(
          env,
          `SELECT actor_type, actor_label, detail FROM audit_events WHERE workspace_id = $1 AND action = 'workspace.updated' ORDER BY created_at, id`,
          [ws.id],
        )
      ).map((r) => ({ actor_type: r.actor_type, actor_label: r.actor_label, detail: r.detail }));
    const admin = await signInDashboard(baseUrl);
    const before = (await audited()).length;
    const refusals: [unknown, Record<string, unknown>][] = [
      [{ whatsapp_prices: { marketing: "-1" } }, { code: "parameter_invalid", param: "whatsapp_prices.marketing" }],
      [{ whatsapp_prices: { marketing: "0.0000001" } }, { code: "parameter_invalid", param: "whatsapp_prices.marketing" }],
      [{ whatsapp_prices: { Marketing: "0.06" } }, { code: "parameter_invalid", param: "whatsapp_prices.Marketing" }],
      [{ currency: "usd" }, { code: "parameter_invalid", param: "currency" }],
      [{ currency: "US" }, { code: "parameter_invalid", param: "currency" }],
    ];
    for (const [input, error] of refusals) {
      const res = await update(admin, input);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.error?.data).toMatchObject({ type: "invalid_request", ...error });
    }

    const email = `pricing-support-${Date.now()}@example.test`;
    await svcJson(env, "user", "create", "--workspace", ws.id, "--email", email, "--password", "support-password-1", "--role", "support");
    const support = await update(await signIn(baseUrl, email, "support-password-1"), { whatsapp_prices: { marketing: "9" } });
    expect(support.status).toBe(403);
    expect(support.body.error?.data).toMatchObject({ type: "forbidden" });
    expect(await audited()).toHaveLength(before);

    const set = await update(admin, { whatsapp_prices: { marketing: "0.07", authentication: "0.0135" }, currency: "BRL" });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.result?.data).toMatchObject({
      whatsapp_prices: { marketing: "0.07", utility: "0.0068", authentication: "0.0135" },
      currency: "BRL",
    });
    expect((await audited()).slice(before)).toEqual([
      {
        actor_type: "user",
        actor_label: FIXTURE_ADMIN.email,
        detail: expect.objectContaining({
          whatsapp_prices: { marketing: "0.07", utility: "0.0068", authentication: "0.0135" },
          currency: "BRL",
        }),
      },
    ]);
    expect((await live.get("/usage")).body.whatsapp_cost).toMatchObject({ currency: "BRL" });
  }, 120_000);
});
