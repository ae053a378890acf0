import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api, expectError, fixtures } from "../support/client.ts";
import { dashboardMutation, dashboardQuery } from "../support/dashboard.ts";
import { contactEvents } from "../support/events.ts";
import { inboundTextWebhook, postWebhook, startFakeWhatsApp, statusWebhook, type FakeWhatsApp } from "../support/fake-whatsapp.ts";
import { parseMessage, startSmtpSink, type SmtpSink } from "../support/smtp-sink.ts";
import { poller } from "../support/until.ts";
import { openWhatsAppWindow } from "../support/whatsapp-window.ts";

// Live sends through the real pipeline to a local server speaking the WhatsApp Cloud API's
// JSON and a real SMTP server on loopback; provider reports through /api/providers/*.
// D8, D16, D20, D25, D39, operations.md "Provider endpoints".
const fx = fixtures();
const ws = fx.delivery!;
const live = api(ws.keys.live);
const { baseUrl } = inject("api");
let fake: FakeWhatsApp;
let smtp: SmtpSink;
const phoneNumberId = String(100_000_000 + Math.floor(Math.random() * 899_999_999));
const appSecret = `secret-${randomUUID()}`;

let n = 0;
const phone = () => `+55119${String(30_000_000 + ((Date.now() + n++ * 7919 + Math.floor(Math.random() * 1e6)) % 69_999_999)).slice(-8)}`;

/** A number whose 24-hour window is open (D43): it wrote to the channel first. */
async function windowed(channel = { phoneNumberId, appSecret }): Promise<string> {
  const to = phone();
  await openWhatsAppWindow(baseUrl, channel, to);
  return to;
}

// These tests check what is sent and recorded, not how fast (the benchmark measures that): a
// full run beside other work once took over 8 s to send one message here, at a load of 12.
const waitFor = <T>(read: () => Promise<T>, done: (v: T) => boolean, ms = 30_000): Promise<T> => poll(read, done, ms);
const message = (id: string) => live.get(`/messages/${id}`);
const until = (id: string, status: string) =>
  waitFor(
    () => message(id),
    (r) => r.body.status === status,
  );
const report = (wamid: string, status: "sent" | "delivered" | "read" | "failed", extra: object = {}) =>
  postWebhook(`${baseUrl}/api/providers/whatsapp`, statusWebhook(phoneNumberId, [{ wamid, status, ...extra }]), appSecret);

beforeAll(async () => {
  fake = await startFakeWhatsApp({ latencyMs: 20 });
  smtp = await startSmtpSink();
  await dashboardMutation(ws.id, "channels.connect", {
    type: "whatsapp",
    phone_number_id: phoneNumberId,
    access_token: "token-1",
    app_secret: appSecret,
    verify_token: "verify-1",
    api_base_url: fake.url,
  });
  await dashboardMutation(ws.id, "channels.connect", { type: "email", smtp_url: smtp.url, from: "news@shop.example" });
});

afterAll(async () => {
  await fake?.close();
  await smtp?.close();
});

describe("live WhatsApp", () => {
  it("dispatches the Cloud API JSON, becomes sent with the wamid, then follows status reports (D8)", async () => {
    const to = await windowed();
    const res = await live.post("/messages", { channel: "whatsapp", to: { phone: to, name: "Ana" }, whatsapp: { body: "Olá {{name}}" } });
    expect(res.status).toBe(202);
    const sent = await until(res.body.id, "sent");
    expect(sent.body.status).toBe("sent");
    const request = fake.requests.find((r) => r.wamid === sent.body.provider_message_id)!;
    expect(request.phoneNumberId).toBe(phoneNumberId);
    expect(request.headers.authorization).toBe("Bearer token-1");
    expect(request.body).toMatchObject({ messaging_product: "whatsapp", to: to.slice(1), type: "text", text: { body: "Olá Ana" } });

    // A read report for a sent message also delivers it, events in order (D8).
    expect((await report(sent.body.provider_message_id, "read")).status).toBe(200);
    const read = await until(res.body.id, "read");
    expect(read.body.delivered_at).not.toBeNull();
    expect(read.body.read_at).not.toBeNull();
    // Late reports never move it back, and delivered/read never become failed.
    await report(sent.body.provider_message_id, "delivered");
    await report(sent.body.provider_message_id, "failed", { errors: [{ code: 131026, title: "Message undeliverable" }] });
    expect((await message(res.body.id)).body).toMatchObject({ status: "read", error: null });
    const contact = (await live.get(`/contacts?phone=${encodeURIComponent(to)}`)).body;
    const events = await contactEvents(ws.id, contact.id);
    const names = events.map((e) => e.event).filter((e) => e.startsWith("mensagem."));
    // The contact's own message that opened the window (D44) comes first.
    expect(names).toEqual(["mensagem.recebida", "mensagem.enviada", "mensagem.entregue", "mensagem.lida"]);
  });

  it("refuses unsigned or wrongly signed reports with 401 and changes nothing", async () => {
    const res = await live.post("/messages", { channel: "whatsapp", to: { phone: await windowed() }, whatsapp: { body: "x" } });
    const sent = await until(res.body.id, "sent");
    const payload = statusWebhook(phoneNumberId, [{ wamid: sent.body.provider_message_id, status: "delivered" }]);
    expect((await postWebhook(`${baseUrl}/api/providers/whatsapp`, payload, null)).status).toBe(401);
    expect((await postWebhook(`${baseUrl}/api/providers/whatsapp`, payload, "wrong-secret")).status).toBe(401);
    expect((await message(res.body.id)).body.status).toBe("sent");
  });

  it("marks a permanent provider error failed, and retries a temporary one", async () => {
    fake.setMode({ kind: "graph_error", status: 400, code: 131030, message: "Recipient phone number not in allowed list" }, { times: 1 });
    const bad = await live.post("/messages", { channel: "whatsapp", to: { phone: await windowed() }, whatsapp: { body: "x" } });
    const failed = await until(bad.body.id, "failed");
    expect(failed.body.error).toContain("Recipient phone number not in allowed list");
    expect(failed.body.error_code).toBe("131030"); // D45

    fake.setMode({ kind: "status", status: 503 }, { times: 1 });
    const retried = await live.post("/messages", { channel: "whatsapp", to: { phone: await windowed() }, whatsapp: { body: "y" } });
    const sent = await waitFor(
      () => message(retried.body.id),
      (r) => r.body.status === "sent",
      30_000,
    );
    expect(sent.body.status).toBe("sent");
  });

  it("sets opt_out_whatsapp on an inbound stop word, and refuses later sends (D16)", async () => {
    const to = phone();
    await live.post("/contacts", { phone: to });
    const res = await postWebhook(
      `${baseUrl}/api/providers/whatsapp`,
      inboundTextWebhook(phoneNumberId, to.slice(1), "  parar "),
      appSecret,
    );
    expect(res.status).toBe(200);
    const contact = await waitFor(
      () => live.get(`/contacts?phone=${encodeURIComponent(to)}`),
      (r) => r.body.opt_out_whatsapp === true,
    );
    expect(contact.body.opt_out_whatsapp).toBe(true);
    expectError(await live.post("/messages", { channel: "whatsapp", to: { phone: to }, whatsapp: { body: "x" } }), {
      status: 409,
      type: "conflict",
      param: "to",
    });
  });
});

describe("live e-mail (D39)", () => {
  it("sends through SMTP with tracking and one-click unsubscribe; the open image marks it read", async () => {
    const to = `reader.${randomUUID().slice(0, 8)}@example.com`;
    const res = await live.post("/messages", {
      channel: "email",
      to: { email: to, name: "<b>Ana</b>" },
      email: { subject: "Hi {{name}}", html: "<p>Hello {{name}}</p>" },
    });
    const sent = await until(res.body.id, "sent");
    expect(sent.body.status).toBe("sent");
    const raw = smtp.messages.find((m) => m.to.includes(to))!;
    const mail = await parseMessage(raw);
    expect(mail.subject).toBe("Hi <b>Ana</b>");
    const html = mail.html || "";
    expect(html).toContain("<p>Hello &lt;b&gt;Ana&lt;/b&gt;</p>");
    const local = (url: string) => url.replace(/^http:\/\/localhost/, "http://127.0.0.1");
    const open = local(/src="([^"]+\/api\/providers\/email\/open\/[^"]+)"/.exec(html)![1]!);
    const unfolded = `\r\n${raw.raw}`.replace(/\r\n(?=[ \t])/g, "");
    const unsubscribe = local(/\r\nList-Unsubscribe: <([^>]+)>\r\n/.exec(unfolded)![1]!);
    expect(unfolded).toContain("\r\nList-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n");

    const pixel = await fetch(open);
    expect(pixel.headers.get("content-type")).toBe("image/gif");
    const read = await until(res.body.id, "read");
    expect(read.body.delivered_at).not.toBeNull();

    const unsub = await fetch(unsubscribe, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    expect(unsub.status).toBe(200);
    expect((await live.get(`/contacts?email=${encodeURIComponent(to)}`)).body.opt_out_email).toBe(true);
  });

  it("fails on a permanent SMTP rejection with the server's reply", async () => {
    smtp.reject(550, { message: "Mailbox unavailable", times: 1 });
    const res = await live.post("/messages", {
      channel: "email",
      to: { email: `gone.${randomUUID().slice(0, 6)}@example.com` },
      email: { html: "x" },
    });
    const failed = await until(res.body.id, "failed");
    expect(failed.body.error).toContain("Mailbox unavailable");
  });
});

const poll = poller(30_000);

describe("quotas (D25) and usage (D20)", () => {
  const quota = fx.quota!;

  it("counts live sends exactly under concurrency and refuses past the daily limit", async () => {
    const quotaChannel = { phoneNumberId: String(Number(phoneNumberId) + 1), appSecret: "s" };
    await dashboardMutation(quota.id, "channels.connect", {
      type: "whatsapp",
      phone_number_id: quotaChannel.phoneNumberId,
      access_token: "t",
      app_secret: quotaChannel.appSecret,
      verify_token: "v",
      api_base_url: fake.url,
    });
    const recipients: string[] = [];
    for (let i = 0; i < 16; i++) recipients.push(await windowed(quotaChannel));
    const results = await Promise.all(
      recipients.map((to) => api(quota.keys.live).post("/messages", { channel: "whatsapp", to: { phone: to }, whatsapp: { body: "q" } })),
    );
    expect(results.filter((r) => r.status === 202)).toHaveLength(10);
    for (const r of results.filter((r) => r.status !== 202)) {
      expectError(r, { status: 403, type: "quota_exceeded", code: "daily_limit_reached", param: "channel" });
    }
    const usage = (await api(quota.keys.live).get("/usage")).body;
    expect(usage).toMatchObject({ whatsapp: 10, email: 0, total: 10, daily_limit_per_channel: 10 });
    // Test keys never reach a quota and never count.
    const test = await api(quota.keys.test).post("/messages", { channel: "whatsapp", to: { phone: phone() }, whatsapp: { body: "t" } });
    expect(test.status).toBe(202);
    expect((await api(quota.keys.live).get("/usage")).body.total).toBe(10);
  });

  it("refuses past the monthly limit", async () => {
    const monthly = fx.monthly!;
    await dashboardMutation(monthly.id, "channels.connect", { type: "email", smtp_url: smtp.url, from: "m@shop.example" });
    const send = () =>
      api(monthly.keys.live).post("/messages", {
        channel: "email",
        to: { email: `m${randomUUID().slice(0, 6)}@example.com` },
        email: { html: "x" },
      });
    for (let i = 0; i < 2; i++) expect((await send()).status).toBe(202);
    // Flow sends count too, each as if alone, also when their runs advance together: of three
    // runs at once, one fits the last message and the others go on without it.
    const { flow_id: flow } = await dashboardMutation<{ flow_id: string }>(monthly.id, "flows.create", {
      definition: { name: "Monthly", status: "active", steps: [{ type: "send", channel: "email", email: { subject: "s", html: "x" } }] },
    });
    const runs = await Promise.all(
      Array.from({ length: 3 }, () =>
        api(monthly.keys.live).post(`/flows/${flow}/enroll`, { to: { email: `f${randomUUID().slice(0, 6)}@example.com` } }),
      ),
    );
    const sends = [];
    for (const run of runs) {
      expect(run.status).toBe(201);
      const done = await poll(
        () =>
          dashboardQuery<{ status: string; history: { kind: string; detail: Record<string, unknown> }[] }>(monthly.id, "flows.run", {
            run_id: run.body.id,
          }),
        (r) => r.status !== "active",
      );
      expect(done.status).toBe("completed");
      sends.push(done.history.find((h) => h.detail.type === "send")!);
    }
    expect(sends.filter((h) => h.kind === "step")).toHaveLength(1);
    for (const h of sends.filter((h) => h.kind !== "step"))
      expect(h).toMatchObject({ kind: "skipped", detail: { code: "monthly_limit_reached" } });
    expectError(await send(), { status: 403, type: "quota_exceeded", code: "monthly_limit_reached", param: "channel" });
    expect((await api(monthly.keys.live).get("/usage")).body).toMatchObject({ email: 3, total: 3, limit: 3 });
  });
});
