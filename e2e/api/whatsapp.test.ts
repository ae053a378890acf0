import { randomUUID } from "node:crypto";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api, expectError, fixtures } from "../support/client.ts";
import { dashboardMutation, dashboardQuery } from "../support/dashboard.ts";
import { svcJson } from "../support/svc.ts";
import {
  inboundTextWebhook,
  inboundWebhook,
  postWebhook,
  startFakeWhatsApp,
  statusWebhook,
  templateStatusWebhook,
  type FakeWhatsApp,
} from "../support/fake-whatsapp.ts";
import { startReceiver, type Receiver } from "../support/webhook-receiver.ts";
import { openWhatsAppWindow } from "../support/whatsapp-window.ts";
import { poll } from "../support/until.ts";

// WhatsApp as Meta runs it (D41-D45) over real HTTP: a channel connected with its business
// account id syncs its templates from a local Cloud API speaking Meta's JSON; template sends
// reach it with their components filled; free-form sends need the 24-hour window, opened by a
// signed inbound message at the provider callback; inbound messages become Messages and
// `mensagem.recebida` deliveries; Meta's error codes are kept on failed messages.
const fx = fixtures();
const ws = fx.whatsapp!;
const live = api(ws.keys.live);
const test = api(ws.keys.test);
const { baseUrl, env } = inject("api");
const stripe = new Stripe("sk_test_unused");
const phoneNumberId = String(100_000_000 + Math.floor(Math.random() * 899_999_999));
const wabaId = String(200_000_000 + Math.floor(Math.random() * 799_999_999));
const appSecret = `secret-${randomUUID()}`;
const callback = `${baseUrl}/api/providers/whatsapp`;
let fake: FakeWhatsApp;
let receiver: Receiver;
let channelId: string;
let webhookSecret: string;

let n = 0;
const phone = () => `+55119${String(30_000_000 + ((Date.now() + n++ * 7919 + Math.floor(Math.random() * 1e6)) % 69_999_999)).slice(-8)}`;

const waitFor = <T>(read: () => Promise<T>, done: (v: T) => boolean, ms = 10_000): Promise<T> => poll(read, done, ms);
const until = (id: string, status: string) =>
  waitFor(
    () => live.get(`/messages/${id}`),
    (r) => r.body.status === status,
  );

const TEMPLATES = [
  {
    name: "order_shipped",
    language: "en_US",
    status: "APPROVED" as const,
    category: "UTILITY" as const,
    components: [
      { type: "HEADER", format: "TEXT", text: "Order {{1}}" },
      { type: "BODY", text: "Hi {{1}}, your order shipped with {{2}}.", example: { body_text: [["Ana", "DHL"]] } },
      { type: "FOOTER", text: "Shop" },
    ],
  },
  {
    name: "code",
    language: "pt_BR",
    status: "APPROVED" as const,
    category: "AUTHENTICATION" as const,
    parameter_format: "NAMED" as const,
    components: [{ type: "BODY", text: "Seu código é {{code}}." }],
  },
  {
    name: "promo",
    language: "en_US",
    status: "PENDING" as const,
    category: "MARKETING" as const,
    components: [{ type: "BODY", text: "Sale!" }],
  },
];

beforeAll(async () => {
  fake = await startFakeWhatsApp({ latencyMs: 5 });
  // Many templates, so the sync follows Meta's paging (100 a page).
  fake.templates.set(wabaId, [
    ...TEMPLATES,
    ...Array.from({ length: 120 }, (_, i) => ({
      name: `bulk_${i}`,
      language: "en_US",
      status: "APPROVED" as const,
      category: "MARKETING" as const,
      components: [{ type: "BODY", text: `Bulk ${i}` }],
    })),
  ]);
  receiver = await startReceiver();
  const connected = await dashboardMutation<{ channel_id: string; channel: { templates_synced_at: string | null } }>(
    ws.id,
    "channels.connect",
    {
      type: "whatsapp",
      phone_number_id: phoneNumberId,
      waba_id: wabaId,
      access_token: "token-1",
      app_secret: appSecret,
      verify_token: "verify-1",
      api_base_url: fake.url,
    },
  );
  channelId = connected.channel_id;
  expect(connected.channel.templates_synced_at).not.toBeNull();
  const hook = await dashboardMutation<{ secret: string }>(ws.id, "webhooks.create", { url: receiver.url, events: ["mensagem.recebida"] });
  webhookSecret = hook.secret;
});

afterAll(async () => {
  await fake?.close();
  await receiver?.close();
});

async function allTemplates(key = live) {
  const out: any[] = [];
  let path = `/whatsapp/templates?channel_id=${channelId}&limit=100`;
  for (;;) {
    const res = await key.get(path);
    expect(res.status).toBe(200);
    out.push(...res.body);
    const next = /<([^>]+)>; rel="next"/.exec(res.headers.get("link") ?? "")?.[1];
    if (!next) return out;
    path = next.slice(next.indexOf("/api/v1") + "/api/v1".length);
  }
}

describe("templates (D41)", () => {
  it("are synced on connect through every page of Meta's listing, and listed with GET /whatsapp/templates", async () => {
    const templates = await allTemplates();
    expect(templates).toHaveLength(123);
    const shipped = templates.find((t) => t.name === "order_shipped");
    expect(shipped).toEqual({
      id: expect.stringMatching(/^tpl_/),
      channel_id: channelId,
      name: "order_shipped",
      language: "en_US",
      category: "utility",
      status: "approved",
      parameters: ["header_1", "1", "2"],
      body: "Hi {{1}}, your order shipped with {{2}}.",
      updated_at: expect.any(String),
    });
    expect(templates.find((t) => t.name === "code")).toMatchObject({ category: "authentication", parameters: ["code"] });
    // Test keys see the same templates; the status filter.
    expect((await allTemplates(test)).length).toBe(123);
    const pending = await live.get(`/whatsapp/templates?status=pending&channel_id=${channelId}`);
    expect(pending.body.map((t: { name: string }) => t.name)).toEqual(["promo"]);
  });

  it("are synced again on demand (dashboard), and a status webhook pauses one", async () => {
    fake.templates.get(wabaId)!.push({
      name: "late_arrival",
      language: "en_US",
      status: "APPROVED",
      category: "UTILITY",
      components: [{ type: "BODY", text: "Hello" }],
    });
    const synced = await dashboardMutation<{ templates: number; synced_at: string }>(ws.id, "whatsapp.syncTemplates", {
      channel_id: channelId,
    });
    expect(synced.templates).toBe(124);
    expect((await allTemplates()).some((t) => t.name === "late_arrival")).toBe(true);
    // Sent once: the server keeps the template it read, while the workspace's templates are
    // unchanged; the pause below must still reach the next sends, of either mode.
    const lateArrival = { channel: "whatsapp", whatsapp: { template: { name: "late_arrival", language: "en_US" } } };
    expect((await test.post("/messages", { ...lateArrival, to: { phone: phone() } })).status).toBe(202);
    expect((await test.post("/messages", { ...lateArrival, to: { phone: phone() } })).status).toBe(202);

    const paused = templateStatusWebhook(wabaId, { name: "late_arrival", language: "en_US", event: "PAUSED" });
    expect((await postWebhook(callback, paused, "wrong-secret")).status).toBe(401);
    expect((await postWebhook(callback, paused, appSecret)).status).toBe(200);
    expect((await allTemplates()).find((t) => t.name === "late_arrival").status).toBe("paused");
    // D42: a template that is not approved is refused before any write.
    const to = phone();
    expectError(
      await live.post("/messages", {
        channel: "whatsapp",
        to: { phone: to },
        whatsapp: { template: { name: "late_arrival", language: "en_US" } },
      }),
      { status: 409, type: "conflict", code: "template_not_approved", param: "whatsapp.template.name" },
    );
    expect((await live.get(`/contacts?phone=${encodeURIComponent(to)}`)).status).toBe(404);
    expectError(await test.post("/messages", { ...lateArrival, to: { phone: phone() } }), {
      status: 409,
      type: "conflict",
      code: "template_not_approved",
      param: "whatsapp.template.name",
    });
  });
});

describe("template sends (D42)", () => {
  it("see a change another process made to the templates at once, though the server keeps what it read", async () => {
    fake.templates.get(wabaId)!.push({
      name: "cache_probe",
      language: "en_US",
      status: "APPROVED",
      category: "UTILITY",
      components: [{ type: "BODY", text: "Probe" }],
    });
    // As the server runs: the channel's Cloud API is this test's local server.
    const cli = { ...env, ALLOW_PRIVATE_WEBHOOKS: "1" };
    await svcJson(cli, "channel", "sync-templates", "--workspace", ws.id, "--channel", channelId);
    const probe = { channel: "whatsapp", whatsapp: { template: { name: "cache_probe", language: "en_US" } } };
    for (let i = 0; i < 2; i++) expect((await test.post("/messages", { ...probe, to: { phone: phone() } })).status).toBe(202);
    // The operator CLI syncs again, in its own process, after Meta rejected the template.
    fake.templates.get(wabaId)!.find((t) => t.name === "cache_probe")!.status = "REJECTED";
    await svcJson(cli, "channel", "sync-templates", "--workspace", ws.id, "--channel", channelId);
    expectError(await test.post("/messages", { ...probe, to: { phone: phone() } }), {
      status: 409,
      type: "conflict",
      code: "template_not_approved",
      param: "whatsapp.template.name",
    });
  });

  it("checks the recipient before the template, as D16 orders them (the template is read ahead, beside the recipient)", async () => {
    const to = phone();
    expect((await live.post("/contacts", { phone: to, opt_out_whatsapp: true })).status).toBeLessThan(300);
    expectError(
      await live.post("/messages", { channel: "whatsapp", to: { phone: to }, whatsapp: { template: { name: "nope", language: "en_US" } } }),
      {
        status: 409,
        type: "conflict",
        code: "recipient_opted_out",
        param: "to",
      },
    );
    expectError(
      await live.post("/messages", {
        channel: "whatsapp",
        to: { contact_id: "ct_missing" },
        whatsapp: { template: { name: "nope", language: "en_US" } },
      }),
      { status: 404, type: "not_found", code: "resource_missing", param: "to.contact_id" },
    );
  });

  it("refuses each fault with its param and code before any write", async () => {
    const to = phone();
    const send = (whatsapp: unknown, extra: object = {}) =>
      live.post("/messages", { channel: "whatsapp", to: { phone: to }, whatsapp, ...extra });
    expectError(await send({ template: { name: "nope", language: "en_US" } }), {
      status: 400,
      type: "invalid_request",
      code: "template_not_found",
      param: "whatsapp.template.name",
    });
    expectError(await send({ template: { name: "order_shipped", language: "pt_BR" } }), {
      status: 400,
      type: "invalid_request",
      code: "template_not_found",
    });
    expectError(await send({ template: { name: "promo", language: "en_US" } }), {
      status: 409,
      type: "conflict",
      code: "template_not_approved",
      param: "whatsapp.template.name",
    });
    expectError(await send({ template: { name: "order_shipped", language: "en_US", parameters: { header_1: "#1", "1": "Ana" } } }), {
      status: 400,
      type: "invalid_request",
      param: "whatsapp.template.parameters.2",
    });
    expectError(
      await send({
        template: { name: "order_shipped", language: "en_US", parameters: { header_1: "#1", "1": "Ana", "2": "DHL", extra: "x" } },
      }),
      { status: 400, type: "invalid_request", param: "whatsapp.template.parameters.extra" },
    );
    expectError(await send({ body: "x", template: { name: "order_shipped", language: "en_US" } }), {
      status: 400,
      type: "invalid_request",
      param: "whatsapp.template",
    });
    expectError(await send({ template: { name: "code", language: "pt_BR", parameters: { code: "{{otp}}" } } }), {
      status: 400,
      type: "invalid_request",
      param: "variables.otp",
    });
    expect((await live.get(`/contacts?phone=${encodeURIComponent(to)}`)).status).toBe(404);
  });

  it("reaches the Cloud API as type template, parameters filled from variables and custom fields, outside the window", async () => {
    await live.post("/custom-fields", { key: "carrier", name: "Carrier", type: "text" });
    const to = phone();
    const contact = await live.post("/contacts", { phone: to, name: "Ana", fields: { carrier: "DHL" } });
    expect(contact.body.whatsapp_window_expires_at).toBeNull();
    const res = await live.post("/messages", {
      channel: "whatsapp",
      to: { phone: to },
      whatsapp: {
        template: { name: "order_shipped", language: "en_US", parameters: { header_1: "#{{order}}", "1": "{{name}}", "2": "{{carrier}}" } },
      },
      variables: { order: "1042" },
    });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ direction: "outbound", status: "queued", error_code: null });
    const sent = await until(res.body.id, "sent");
    const request = fake.requests.find((r) => r.wamid === sent.body.provider_message_id)!;
    expect(request.body).toEqual({
      messaging_product: "whatsapp",
      recipient_type: "individual",
      to: to.slice(1),
      type: "template",
      template: {
        name: "order_shipped",
        language: { code: "en_US" },
        components: [
          { type: "header", parameters: [{ type: "text", text: "#1042" }] },
          {
            type: "body",
            parameters: [
              { type: "text", text: "Ana" },
              { type: "text", text: "DHL" },
            ],
          },
        ],
      },
      // Our id, which Meta returns on each status report of the message (D47).
      biz_opaque_callback_data: res.body.id,
    });
    // Named parameters carry their names.
    const otp = await live.post("/messages", {
      channel: "whatsapp",
      to: { phone: to },
      whatsapp: { template: { name: "code", language: "pt_BR", parameters: { code: "4821" } } },
    });
    const otpSent = await until(otp.body.id, "sent");
    expect(fake.requests.find((r) => r.wamid === otpSent.body.provider_message_id)!.body.template.components).toEqual([
      { type: "body", parameters: [{ type: "text", text: "4821", parameter_name: "code" }] },
    ]);
  });
});

describe("the 24-hour window (D43) and inbound messages (D44)", () => {
  it("refuses a free-form live send while the window is closed, and accepts it once a signed inbound message opened it", async () => {
    const to = phone();
    const refused = expectError(await live.post("/messages", { channel: "whatsapp", to: { phone: to }, whatsapp: { body: "Hi" } }), {
      status: 409,
      type: "conflict",
      code: "whatsapp_window_closed",
      param: "whatsapp.body",
    });
    expect(refused.message).toMatch(/never opened/);
    expect(refused.message).toMatch(/template/);
    expectError(
      await live.post("/messages", {
        channel: "whatsapp",
        to: { phone: to },
        whatsapp: { media_url: "https://cdn.example.com/a.png", media_type: "image" },
      }),
      { status: 409, type: "conflict", code: "whatsapp_window_closed", param: "whatsapp.media_url" },
    );
    expect((await live.get(`/contacts?phone=${encodeURIComponent(to)}`)).status).toBe(404);

    // An unsigned message opens nothing.
    expect((await postWebhook(callback, inboundTextWebhook(phoneNumberId, to.slice(1), "hello"), null)).status).toBe(401);
    const before = Date.now();
    await openWhatsAppWindow(baseUrl, { phoneNumberId, appSecret }, to);
    const contact = (await live.get(`/contacts?phone=${encodeURIComponent(to)}`)).body;
    const expires = new Date(contact.whatsapp_window_expires_at).getTime();
    expect(expires).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 24 * 3600_000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 24 * 3600_000);

    const res = await live.post("/messages", { channel: "whatsapp", to: { phone: to }, whatsapp: { body: "Thanks for writing" } });
    expect(res.status).toBe(202);
    expect((await until(res.body.id, "sent")).body.status).toBe("sent");
  });

  it("test keys: every window is open but the reserved +15550100004's", async () => {
    expect((await test.post("/messages", { channel: "whatsapp", to: { phone: phone() }, whatsapp: { body: "Hi" } })).status).toBe(202);
    expectError(await test.post("/messages", { channel: "whatsapp", to: { phone: "+15550100004" }, whatsapp: { body: "Hi" } }), {
      status: 409,
      type: "conflict",
      code: "whatsapp_window_closed",
      param: "whatsapp.body",
    });
    // A template goes out to it: test keys see the live templates.
    const tpl = await test.post("/messages", {
      channel: "whatsapp",
      to: { phone: "+15550100004" },
      whatsapp: { template: { name: "code", language: "pt_BR", parameters: { code: "1" } } },
    });
    expect(tpl.status).toBe(202);
  });

  it("stores an inbound message, creates its contact, and delivers mensagem.recebida signed", async () => {
    const from = phone();
    const payload = inboundTextWebhook(phoneNumberId, from.slice(1), "Where is my order?");
    expect((await postWebhook(callback, payload, appSecret)).status).toBe(200);
    // Meta redelivers: the same wamid is recorded once.
    expect((await postWebhook(callback, payload, appSecret)).status).toBe(200);
    const contact = (await live.get(`/contacts?phone=${encodeURIComponent(from)}`)).body;
    expect(contact).toMatchObject({ phone: from, name: "Ana" });
    const [hit, ...more] = await receiver.waitFor((r) => r.body?.data?.contact === contact.id);
    const event = stripe.webhooks.constructEvent(
      hit!.raw,
      hit!.headers["x-svc-signature"] as string,
      webhookSecret,
      300,
    ) as unknown as Record<string, any>;
    expect(event).toMatchObject({
      event: "mensagem.recebida",
      mode: "live",
      data: { channelType: "whatsapp", contact: contact.id, direction: "inbound", text: "Where is my order?", media_type: null },
    });
    expect(more).toHaveLength(0);
    const message = await live.get(`/messages/${event.data.id}`);
    expect(message.body).toMatchObject({ direction: "inbound", status: "received", channel: "whatsapp", contact_id: contact.id });
    const inbound = await live.get(`/messages?direction=inbound&contact_id=${contact.id}`);
    expect(inbound.body.map((m: { id: string }) => m.id)).toEqual([event.data.id]);
  });

  it("stores an interactive reply with its title as text, and media with its type", async () => {
    const from = phone();
    await postWebhook(
      callback,
      inboundWebhook(phoneNumberId, from.slice(1), {
        type: "interactive",
        interactive: { type: "button_reply", button_reply: { id: "yes-1", title: "Yes, deliver" } },
      }),
      appSecret,
    );
    await postWebhook(
      callback,
      inboundWebhook(phoneNumberId, from.slice(1), { type: "image", image: { id: "1234", mime_type: "image/jpeg", caption: "the box" } }),
      appSecret,
    );
    const contact = (await live.get(`/contacts?phone=${encodeURIComponent(from)}`)).body;
    const hits = await receiver.waitFor((r) => r.body?.data?.contact === contact.id, 2);
    const data = hits.map((h) => h.body.data);
    expect(data.find((d) => d.media_type === null)).toMatchObject({ text: "Yes, deliver", direction: "inbound" });
    expect(data.find((d) => d.media_type === "image")).toMatchObject({ text: "the box", direction: "inbound" });
  });
});

describe("provider error codes (D45)", () => {
  it("a 131047 answered by Meta anyway makes the message failed with error_code 131047", async () => {
    const to = phone();
    await openWhatsAppWindow(baseUrl, { phoneNumberId, appSecret }, to);
    // Meta's own clock says the window is closed (it never saw this number write).
    fake.enforceWindow = true;
    try {
      const res = await live.post("/messages", { channel: "whatsapp", to: { phone: to }, whatsapp: { body: "Late" } });
      expect(res.status).toBe(202);
      const sent = await until(res.body.id, "sent");
      const pending = fake.pendingReports.find((p) => p.report.wamid === sent.body.provider_message_id)!;
      expect(pending).toBeDefined();
      expect((await postWebhook(callback, statusWebhook(pending.phoneNumberId, [pending.report]), appSecret)).status).toBe(200);
      const failed = await until(res.body.id, "failed");
      expect(failed.body).toMatchObject({ status: "failed", error_code: "131047" });
      expect(failed.body.error).toMatch(/Re-engagement/);
    } finally {
      fake.enforceWindow = false;
    }
  });

  it("a 130429 slows the whole channel: a new message waits out the pause, and the throttled one is sent on its retry", async () => {
    const send = (to: string, code: string) =>
      live.post("/messages", {
        channel: "whatsapp",
        to: { phone: to },
        whatsapp: { template: { name: "code", language: "pt_BR", parameters: { code } } },
      });
    const callsTo = (to: string) => fake.requests.filter((r) => r.body?.to === to.slice(1));
    fake.setMode({ kind: "rate_limited" }, { times: 1 });
    const throttledTo = phone();
    const throttled = await send(throttledTo, "1");
    expect(throttled.status).toBe(202);
    // The retry is recorded after the channel's pause is written.
    type Detail = { history: { kind: string; detail: { error?: string } }[] };
    const detail = await waitFor(
      () => dashboardQuery<Detail>(ws.id, "messages.detail", { id: throttled.body.id }),
      (d) => d.history.some((h) => h.kind === "retry"),
    );
    expect(detail.history.find((h) => h.kind === "retry")?.detail.error).toContain("130429");
    const throttledAt = callsTo(throttledTo)[0]!.at;

    // D45: sent after the 130429, another message's first call waits out the pause (the second
    // of the 130429 and the next two), though it was never throttled itself.
    const nextTo = phone();
    const next = await send(nextTo, "2");
    expect(next.status).toBe(202);
    expect((await until(next.body.id, "sent")).body.status).toBe("sent");
    expect(callsTo(nextTo)).toHaveLength(1);
    expect(callsTo(nextTo)[0]!.at).toBeGreaterThanOrEqual((Math.floor(throttledAt / 1000) + 3) * 1000);

    // Temporary: the throttled message is sent on its retry, with a second call.
    const retried = await until(throttled.body.id, "sent");
    expect(retried.body).toMatchObject({ status: "sent", error_code: null });
    expect(callsTo(throttledTo)).toHaveLength(2);
  });

  it("a permanent Graph error on send keeps Meta's code", async () => {
    fake.setMode({ kind: "graph_error", code: 131026, message: "(#131026) Message undeliverable" }, { times: 1 });
    const res = await live.post("/messages", {
      channel: "whatsapp",
      to: { phone: phone() },
      whatsapp: { template: { name: "code", language: "pt_BR", parameters: { code: "9" } } },
    });
    const failed = await until(res.body.id, "failed");
    expect(failed.body.error_code).toBe("131026");
  });
});
