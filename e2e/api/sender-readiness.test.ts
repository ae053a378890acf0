import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { ChannelDomain } from "../../server/channels/email/domain.ts";
import { api, expectError, fixtures } from "../support/client.ts";
import { queryDatabase } from "../support/database.ts";
import { dashboardMutation, dashboardQuery } from "../support/dashboard.ts";
import { startDnsServer, type DnsFixture } from "../support/dns-server.ts";
import { inboundTextWebhook, postWebhook, startFakeWhatsApp, type FakeWhatsApp } from "../support/fake-whatsapp.ts";
import { START_BUDGET_MS, startServer, type RunningServer } from "../support/server.ts";
import { parseMessage, startSmtpSink, type SmtpSink } from "../support/smtp-sink.ts";
import { poll } from "../support/until.ts";

// D91 and D92 over the real paths, on each engine: a signed inbound WhatsApp message marked
// read (and typing) at a local Cloud API that speaks Meta's JSON; the workspace's channels
// listed without secrets; e-mail senders' DNS checked against a real DNS server on loopback
// (aligned, unaligned, strict, a server that never answers), by a second server whose
// DNS_SERVERS names it; and the Feedback-ID of every e-mail, read by mailparser from a real
// SMTP server.

const ws = fixtures().ready!;
const other = fixtures().other!;
const { baseUrl, env } = inject("api");
const live = api(ws.keys.live);
const test = api(ws.keys.test);
const readOnly = api(ws.keys.readOnly);
const channelsOnly = api(ws.keys.channelsOnly);
const phoneNumberId = String(100_000_000 + Math.floor(Math.random() * 899_999_999));
const appSecret = `secret-${randomUUID()}`;
const accessToken = `token-${randomUUID()}`;
const callback = `${baseUrl}/api/providers/whatsapp`;
const sql = (text: string, params: unknown[] = []) => queryDatabase(env, text, params) as Promise<Record<string, any>[]>;

let fake: FakeWhatsApp;
let smtp: SmtpSink;
let dns: DnsFixture;
let dnsServer: RunningServer;
let whatsappId = "";
let signedId = "";
let unalignedId = "";

let n = 0;
const phone = () => `+55119${String(40_000_000 + ((Date.now() + n++ * 7919 + Math.floor(Math.random() * 1e6)) % 59_999_999)).slice(-8)}`;

beforeAll(async () => {
  [fake, smtp, dns] = await Promise.all([
    startFakeWhatsApp({ latencyMs: 5 }),
    startSmtpSink({ auth: { user: "relay-user", pass: "relay-password" } }),
    startDnsServer(),
  ]);
  ({ channel_id: whatsappId } = await dashboardMutation<{ channel_id: string }>(ws.id, "channels.connect", {
    type: "whatsapp",
    phone_number_id: phoneNumberId,
    access_token: accessToken,
    app_secret: appSecret,
    verify_token: "verify-1",
    api_base_url: fake.url,
  }));
  // The oldest e-mail channel: live sends without channel_id go through it.
  ({ channel_id: signedId } = await dashboardMutation<{ channel_id: string }>(ws.id, "channels.connect", {
    type: "email",
    smtp_url: smtp.url,
    from: "news@ready.example",
    bounce_domain: "bounces.ready.example",
    dkim_selector: "svc2026",
  }));
  // Mail from brand.example whose return path is an e-mail provider's own domain, not signed.
  ({ channel_id: unalignedId } = await dashboardMutation<{ channel_id: string }>(ws.id, "channels.connect", {
    type: "email",
    smtp_url: smtp.url,
    from: "hello@brand.example",
    bounce_domain: "bounces.esp-mailer.example",
  }));
  dnsServer = await startServer({ ...env, DNS_SERVERS: dns.server });
}, 2 * START_BUDGET_MS);

afterAll(async () => {
  await dnsServer?.stop();
  await Promise.all([fake?.close(), smtp?.close(), dns?.close()]);
});

/** A signed inbound text message at the provider callback: its message id and its wamid. */
async function inbound(): Promise<{ id: string; wamid: string }> {
  const from = phone();
  const payload = inboundTextWebhook(phoneNumberId, from.slice(1), "Is my order on its way?") as any;
  const wamid = payload.entry[0].changes[0].value.messages[0].id as string;
  expect((await postWebhook(callback, payload, appSecret)).status).toBe(200);
  const [row] = await sql(`SELECT id FROM messages WHERE workspace_id = $1 AND provider_message_id = $2 AND direction = 'inbound'`, [
    ws.id,
    wamid,
  ]);
  return { id: row!.id as string, wamid };
}

const readRequests = () => fake.requests.filter((r) => r.body?.status === "read");

describe("POST /messages/{id}/read (D91)", () => {
  it("marks an inbound WhatsApp message read at Meta, in Meta's JSON; a second call answers the same read_at without calling Meta", async () => {
    const { id, wamid } = await inbound();
    const before = readRequests().length;
    const res = await live.post(`/messages/${id}/read`, {});
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ id, read_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) });
    const sent = readRequests().slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.path).toMatch(new RegExp(`/${phoneNumberId}/messages$`));
    expect(sent[0]!.headers.authorization).toBe(`Bearer ${accessToken}`);
    expect(sent[0]!.body).toEqual({ messaging_product: "whatsapp", status: "read", message_id: wamid });

    const again = await live.post(`/messages/${id}/read`, {});
    expect(again.status).toBe(200);
    expect(again.body).toEqual(res.body);
    expect(readRequests().length).toBe(before + 1);
    const message = await live.get(`/messages/${id}`);
    expect(message.body).toMatchObject({ id, direction: "inbound", status: "received", read_at: res.body.read_at });
    // One entry in the message's history, however often it is marked read.
    const notes = await sql(`SELECT detail FROM message_history WHERE workspace_id = $1 AND message_id = $2 AND kind = 'note'`, [
      ws.id,
      id,
    ]);
    expect(notes.map((n) => n.detail)).toEqual([
      { marked_read: true, typing: false, by: "api", message: "Marked read at WhatsApp from the API." },
    ]);
  });

  it("with typing: true, sends the typing indicator with the read receipt, also on a message already read", async () => {
    const { id, wamid } = await inbound();
    const before = readRequests().length;
    const first = await live.post(`/messages/${id}/read`, { typing: true });
    expect(first.status, first.text).toBe(200);
    const again = await live.post(`/messages/${id}/read`, { typing: true });
    expect(again.body).toEqual(first.body);
    const sent = readRequests().slice(before);
    expect(sent.map((r) => r.body)).toEqual([
      { messaging_product: "whatsapp", status: "read", message_id: wamid, typing_indicator: { type: "text" } },
      { messaging_product: "whatsapp", status: "read", message_id: wamid, typing_indicator: { type: "text" } },
    ]);
  });

  it("the dashboard marks read through the same service", async () => {
    const { id } = await inbound();
    const marked = await dashboardMutation<{ id: string; read_at: string }>(ws.id, "messages.read", { id });
    expect(marked).toEqual({ id, read_at: expect.any(String) });
    expect((await live.get(`/messages/${id}`)).body.read_at).toBe(marked.read_at);
  });

  it("an outbound message or an e-mail: 409 not_inbound on id; unknown, another mode's or workspace's: 404; no scope: 403", async () => {
    const sent = await test.post("/messages", { channel: "whatsapp", to: { phone: phone() }, whatsapp: { body: "Hi" } });
    expect(sent.status, sent.text).toBe(202);
    expectError(await test.post(`/messages/${sent.body.id}/read`, {}), { status: 409, type: "conflict", code: "not_inbound", param: "id" });
    const mail = await test.post("/messages", {
      channel: "email",
      to: { email: "a@example.org" },
      email: { subject: "S", html: "<p>x</p>" },
    });
    expect(mail.status, mail.text).toBe(202);
    expectError(await test.post(`/messages/${mail.body.id}/read`, {}), { status: 409, type: "conflict", code: "not_inbound", param: "id" });

    const { id } = await inbound();
    expectError(await live.post("/messages/msg_unknown/read", {}), { status: 404, type: "not_found", param: "id" });
    expectError(await test.post(`/messages/${id}/read`, {}), { status: 404, type: "not_found", param: "id" });
    expectError(await api(other.keys.test).post(`/messages/${id}/read`, {}), { status: 404, type: "not_found", param: "id" });
    const denied = expectError(await readOnly.post(`/messages/${id}/read`, {}), { status: 403, type: "forbidden", code: "missing_scope" });
    expect(denied.message).toContain("messages:write");
    expectError(await live.post(`/messages/${id}/read`, { typing: "yes" }), { status: 400, type: "invalid_request", param: "typing" });
    expect((await live.get(`/messages/${id}`)).body.read_at).toBeNull();
  });

  it("Meta refusing the receipt: 409 read_not_sent with Meta's reason, and read_at stays unset", async () => {
    const { id } = await inbound();
    fake.setMode({ kind: "graph_error", status: 401, code: 190, message: "Invalid OAuth access token." }, { times: 1 });
    const error = expectError(await live.post(`/messages/${id}/read`, {}), {
      status: 409,
      type: "conflict",
      code: "read_not_sent",
      param: "id",
    });
    expect(error.message).toContain("Invalid OAuth access token.");
    expect((await live.get(`/messages/${id}`)).body.read_at).toBeNull();
    expect((await live.post(`/messages/${id}/read`, {})).status).toBe(200);
  });
});

describe("GET /channels (D92)", () => {
  it("lists the workspace's channels with the names of their secrets, never their values", async () => {
    const res = await channelsOnly.get("/channels");
    expect(res.status, res.text).toBe(200);
    const ids = res.body.map((c: { id: string }) => c.id);
    expect(ids).toEqual(expect.arrayContaining([whatsappId, signedId, unalignedId]));
    const whatsapp = res.body.find((c: { id: string }) => c.id === whatsappId);
    expect(whatsapp).toMatchObject({
      type: "whatsapp",
      external_id: phoneNumberId,
      secrets_set: ["access_token", "app_secret", "verify_token"],
    });
    for (const secret of [accessToken, appSecret, "verify-1", "relay-password", "PRIVATE KEY"]) expect(res.text).not.toContain(secret);
    const denied = expectError(await readOnly.get("/channels"), { status: 403, type: "forbidden", code: "missing_scope" });
    expect(denied.message).toContain("channels:read");
    expect((await api(other.keys.test).get("/channels")).body.map((c: { id: string }) => c.id)).not.toContain(whatsappId);
  });
});

type Check = {
  records: { kind: string; type: string; name: string; value: string; status: string; found: string[]; error: string | null }[];
  dmarc: { aligned: boolean; policy: string | null };
  ready: boolean;
};

describe("POST /channels/{id}/dns-check (D92)", () => {
  const check = async (id: string): Promise<Check> => {
    const res = await api(ws.keys.channelsOnly, dnsServer.url).post(`/channels/${id}/dns-check`, {});
    expect(res.status, res.text).toBe(200);
    return res.body;
  };
  const statuses = (c: Check) => Object.fromEntries(c.records.map((r) => [r.kind, r.status]));
  let domain: ChannelDomain;

  beforeAll(async () => {
    domain = await dashboardQuery<ChannelDomain>(ws.id, "channels.domain", { channel_id: signedId });
  });
  const publish = (kind: string, value?: string) => {
    const r = domain.records.find((x) => x.kind === kind)!;
    if (r.type === "MX") dns.mx(r.name, { priority: 10, exchange: r.value.split(" ")[1]! });
    else dns.txt(r.name, value ?? r.value);
  };

  it("aligned: every record published as listed is verified, DMARC aligned with its policy, ready", async () => {
    for (const kind of ["dkim", "spf", "dmarc", "mx"]) publish(kind);
    const verdict = await check(signedId);
    expect(statuses(verdict)).toEqual({ dkim: "verified", spf: "verified", dmarc: "verified", mx: "verified" });
    expect(verdict.dmarc).toEqual({ aligned: true, policy: "none" });
    expect(verdict.ready).toBe(true);
    publish("dmarc", "v=DMARC1; p=reject; rua=mailto:dmarc@ready.example");
    expect((await check(signedId)).dmarc).toEqual({ aligned: true, policy: "reject" });
  });

  it("not ready: a DKIM key that is not the channel's is a mismatch with what DNS found; SPF on the bounce domain still aligns", async () => {
    publish("dkim", "v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAnotours");
    const verdict = await check(signedId);
    const dkim = verdict.records.find((r) => r.kind === "dkim")!;
    expect(dkim).toMatchObject({ status: "mismatch", found: ["v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAnotours"] });
    expect(verdict.dmarc.aligned).toBe(true); // relaxed: bounces.ready.example aligns with ready.example
    expect(verdict.ready).toBe(false);
    // Strict SPF alignment (aspf=s): the bounce subdomain no longer aligns.
    publish("dmarc", "v=DMARC1; p=quarantine; aspf=s");
    expect((await check(signedId)).dmarc).toEqual({ aligned: false, policy: "quarantine" });
    publish("dkim");
    publish("dmarc");
  });

  it("unaligned: the return path on the e-mail provider's domain, no DKIM: SPF passes, DMARC published, not aligned, not ready", async () => {
    const unaligned = await dashboardQuery<ChannelDomain>(ws.id, "channels.domain", { channel_id: unalignedId });
    for (const r of unaligned.records) {
      if (r.type === "MX") dns.mx(r.name, { priority: 10, exchange: r.value.split(" ")[1]! });
      else dns.txt(r.name, r.value);
    }
    const verdict = await check(unalignedId);
    expect(statuses(verdict)).toEqual({ spf: "verified", dmarc: "verified", mx: "verified" });
    expect(verdict.records.find((r) => r.kind === "spf")!.name).toBe("bounces.esp-mailer.example");
    expect(verdict.dmarc).toEqual({ aligned: false, policy: "none" });
    expect(verdict.ready).toBe(false);
  });

  it("a DNS server that never answers: every record lookup_failed (never missing) with why, not ready, within the check's bound", async () => {
    dns.silence(true);
    try {
      const started = Date.now();
      const verdict = await check(signedId);
      expect(Date.now() - started).toBeLessThan(15_000);
      for (const r of verdict.records) expect(r).toMatchObject({ status: "lookup_failed", error: expect.stringMatching(/DNS server/) });
      expect(verdict).toMatchObject({ dmarc: { aligned: false, policy: null }, ready: false });
    } finally {
      dns.silence(false);
    }
    expect((await check(signedId)).ready).toBe(true);
  });

  it("unknown, WhatsApp or another workspace's channel: 404 on id; no scope: 403", async () => {
    const key = (k: string | undefined) => api(k, dnsServer.url);
    for (const id of ["ch_unknown", whatsappId]) {
      expectError(await key(ws.keys.live).post(`/channels/${id}/dns-check`, {}), { status: 404, type: "not_found", param: "id" });
    }
    expectError(await key(other.keys.test).post(`/channels/${signedId}/dns-check`, {}), { status: 404, type: "not_found", param: "id" });
    expectError(await key(ws.keys.readOnly).post(`/channels/${signedId}/dns-check`, {}), {
      status: 403,
      type: "forbidden",
      code: "missing_scope",
    });
  });
});

describe("Feedback-ID on every e-mail (D92)", () => {
  const received = async (to: string) => {
    const message = await poll(
      async () => smtp.messages.find((m) => m.to.includes(to)),
      (m) => m !== undefined,
      20_000,
    );
    return parseMessage(message!);
  };

  it("an API send: api:<channel id>:<workspace id>:svc", async () => {
    const to = `fb.${randomUUID().slice(0, 8)}@example.org`;
    const res = await live.post("/messages", { channel: "email", to: { email: to }, email: { subject: "Receipt", html: "<p>Thanks</p>" } });
    expect(res.status, res.text).toBe(202);
    const sent = await poll(
      () => live.get(`/messages/${res.body.id}`),
      (m) => m.body.status !== "queued",
      20_000,
    );
    expect(sent.body, JSON.stringify(sent.body)).toMatchObject({ status: "sent" });
    const mail = await received(to);
    expect(mail.headers.get("feedback-id")).toBe(`api:${signedId}:${ws.id}:svc`);
  });

  it("a journey's send: <flow id>:<channel id>:<workspace id>:svc", async () => {
    const flow = await live.post("/flows", {
      name: `Welcome ${randomUUID().slice(0, 8)}`,
      status: "active",
      steps: [{ type: "send", channel: "email", email: { subject: "Welcome", html: "<p>Hello</p>" } }],
    });
    expect(flow.status, flow.text).toBe(201);
    const to = `fb.${randomUUID().slice(0, 8)}@example.org`;
    const run = await live.post(`/flows/${flow.body.id}/enroll`, { to: { email: to } });
    expect(run.status, run.text).toBeLessThan(300);
    const mail = await received(to);
    expect(mail.headers.get("feedback-id")).toBe(`${flow.body.id}:${signedId}:${ws.id}:svc`);
  });
});
