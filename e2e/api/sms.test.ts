import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api, fixtures } from "../support/client.ts";
import { dashboardMutation, dashboardQuery } from "../support/dashboard.ts";
import { queryDatabase } from "../support/database.ts";
import { contactEvents } from "../support/events.ts";
import { startFakeTwilio, type FakeTwilio } from "../support/fake-twilio.ts";
import { svcJson } from "../support/svc.ts";
import { twilioSignature } from "../../server/channels/sms/twilio-signature.ts";
import { until } from "../support/until.ts";

// SMS over the real paths (D94-D97): `svc channel connect --type sms` points a channel at the
// local Twilio fake, which takes the Messages API's form-encoded calls and posts back status
// callbacks and inbound messages signed with X-Twilio-Signature, as Twilio does.
const ws = fixtures().sms!;
const live = api(ws.keys.live);
const test = api(ws.keys.test);
const { env } = inject("api");
const sql = (text: string, params: unknown[] = []) => queryDatabase(env, text, params);
const FROM = "+15017122661";
let fake: FakeTwilio;
let channelId = "";
let callbackUrl = "";

let n = 0;
const phone = () => `+55119${String(30_000_000 + ((Date.now() + n++ * 7919) % 59_999_999)).slice(-8)}`;

beforeAll(async () => {
  fake = await startFakeTwilio();
  // prettier-ignore
  const connected = await svcJson({ ...env, ALLOW_PRIVATE_WEBHOOKS: "1" }, "channel", "connect", "--workspace", ws.id, "--type", "sms",
    "--account-sid", fake.accountSid, "--auth-token", fake.authToken, "--from", FROM, "--api-base-url", fake.url);
  channelId = String(connected.channel_id);
  const channels = await dashboardQuery<{ id: string; type: string; callback_url: string; external_id: string }[]>(ws.id, "channels.list", {
    include_disconnected: false,
  });
  const channel = channels.find((c) => c.id === channelId)!;
  expect(channel).toMatchObject({ type: "sms", external_id: fake.accountSid });
  const path = `/api/providers/sms/twilio/${channelId}`;
  expect(new URL(channel.callback_url).pathname).toBe(path);
  expect(new URL(String(connected.status_callback_url)).pathname).toBe(path);
  // Where the server tells Twilio to report (each send's StatusCallback): the number's inbound webhook is set to the same URL.
  const first = await live.post("/messages", { channel: "sms", to: { phone: phone() }, sms: { body: "First" } });
  expect(first.status, first.text).toBe(202);
  const statusCallback = new URL((await fake.waitForRequests(1))[0]!.form.StatusCallback!);
  expect(statusCallback.pathname).toBe(path);
  expect(statusCallback.searchParams.get("message_id")).toBe(first.body.id);
  callbackUrl = `${statusCallback.origin}${statusCallback.pathname}`;
}, 120_000);

afterAll(async () => {
  await fake?.close();
});

async function send(body: string, to = phone(), client = live): Promise<string> {
  const res = await client.post("/messages", { channel: "sms", to: { phone: to }, sms: { body } });
  expect(res.status, res.text).toBe(202);
  return res.body.id;
}

const message = (id: string, client = live) => client.get(`/messages/${id}`).then((r) => r.body);
const settled = (id: string) =>
  until(
    () => message(id),
    (m) => m.status !== "queued",
    30_000,
  );
const callsTo = (to: string) => fake.requests.filter((r) => r.form.To === to);
const contactOf = async (id: string) => (await live.get(`/contacts/${id}`)).body;
const history = async (id: string) =>
  sql(`SELECT kind, status FROM message_history WHERE workspace_id = $1 AND message_id = $2 ORDER BY id`, [ws.id, id]);

describe("SMS sends (D94)", () => {
  it("sends through Twilio's Messages API with the status callback, the sid as provider id", async () => {
    const to = phone();
    const res = await live.post("/messages", {
      channel: "sms",
      to: { phone: to },
      sms: { body: "Your code is {{code}}." },
      variables: { code: "4821" },
    });
    expect(res.status, res.text).toBe(202);
    expect(res.body).toMatchObject({ channel: "sms", to, sms: { encoding: "GSM-7", segments: 1 } });
    const sent = await settled(res.body.id);
    expect(sent.status).toBe("sent");
    const calls = callsTo(to);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.form).toMatchObject({ To: to, From: FROM, Body: "Your code is 4821." });
    expect(calls[0]!.form.StatusCallback).toBe(`${callbackUrl}?message_id=${res.body.id}`);
    expect(sent.provider_message_id).toBe(calls[0]!.sid);
  });

  it("refuses a body over 1,600 characters once rendered, param sms.body, and nothing is written", async () => {
    const to = phone();
    const res = await live.post("/messages", {
      channel: "sms",
      to: { phone: to },
      sms: { body: `${"a".repeat(1590)}{{code}}` },
      variables: { code: "0123456789ab" },
    });
    expect(res.status, res.text).toBe(400);
    expect(res.body.error).toMatchObject({ param: "sms.body" });
    expect(await sql(`SELECT id FROM contacts WHERE workspace_id = $1 AND phone = $2`, [ws.id, to])).toHaveLength(0);
    const missing = await live.post("/messages", { channel: "sms", to: { phone: to } });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ param: "sms.body" });
  });

  it("test keys simulate: nothing reaches Twilio", async () => {
    const to = phone();
    const id = await send("Simulated", to, test);
    const done = await until(
      () => message(id, test),
      (m) => m.status === "delivered" || m.status === "read",
      30_000,
    );
    expect(done.channel).toBe("sms");
    expect(callsTo(to)).toHaveLength(0);
  });
});

describe("status callbacks (D95)", () => {
  it("sent, delivered and read move the message; queued, accepted, sending and scheduled change nothing", async () => {
    const id = await send("Statuses");
    const { provider_message_id: sid } = await settled(id);
    for (const status of ["queued", "accepted", "sending", "scheduled"] as const) {
      expect((await fake.postStatus(sid, status)).status).toBe(200);
    }
    expect((await message(id)).status).toBe("sent");
    expect((await fake.postStatus(sid, "sent")).status).toBe(200);
    expect((await fake.postStatus(sid, "delivered")).status).toBe(200);
    expect(await message(id)).toMatchObject({ status: "delivered" });
    expect((await fake.postStatus(sid, "read")).status).toBe(200);
    const read = await message(id);
    expect(read.status).toBe("read");
    expect(read.delivered_at).not.toBeNull();
    expect(read.read_at).not.toBeNull();
  });

  it.each(["undelivered", "failed"] as const)("%s fails the message with sms_<ErrorCode>", async (status) => {
    const id = await send(`Will be ${status}`);
    const { provider_message_id: sid } = await settled(id);
    expect((await fake.postStatus(sid, status, { errorCode: 30003 })).status).toBe(200);
    expect(await message(id)).toMatchObject({ status: "failed", error_code: "sms_30003" });
    const failed = await sql(`SELECT data FROM events WHERE workspace_id = $1 AND name = 'mensagem.falhou' AND data->>'id' = $2`, [
      ws.id,
      id,
    ]);
    expect(failed).toHaveLength(1);
    expect(failed[0]!.data).toMatchObject({ channelType: "sms", error_code: "sms_30003" });
  });

  it.each([
    ["forged", "not-the-auth-token"],
    ["unsigned", null],
  ] as const)("a %s callback is refused with 403 and nothing is recorded", async (_, signWith) => {
    const id = await send("Forged");
    const { provider_message_id: sid } = await settled(id);
    const before = await history(id);
    const res = await fake.postStatus(sid, "delivered", { signWith });
    expect(res.status).toBe(403);
    expect(await message(id)).toMatchObject({ status: "sent" });
    expect(await history(id)).toEqual(before);
    const inbound = await fake.postInbound(callbackUrl, { from: phone(), to: FROM, body: "forged" }, { signWith });
    expect(inbound.status).toBe(403);
    expect(await sql(`SELECT id FROM messages WHERE workspace_id = $1 AND content->>'text' = 'forged'`, [ws.id])).toHaveLength(0);
  });
});

describe("inbound and opt-out (D96)", () => {
  it("records an inbound sms on the contact matched or created by phone, with mensagem.recebida", async () => {
    const from = phone();
    const res = await fake.postInbound(callbackUrl, { from, to: FROM, body: "Hello there" });
    expect(res.status).toBe(200);
    const [row] = await until(
      () =>
        sql(
          `SELECT id, contact_id, channel::text AS channel, status::text AS status FROM messages WHERE workspace_id = $1 AND direction = 'inbound' AND content->>'from' = $2`,
          [ws.id, from],
        ),
      (rows) => rows.length === 1,
    );
    expect(row).toMatchObject({ channel: "sms", status: "received" });
    const contact = await contactOf(String(row!.contact_id));
    expect(contact).toMatchObject({ phone: from, opt_out_sms: false });
    const received = (await contactEvents(ws.id, contact.id)).filter((e) => e.event === "mensagem.recebida");
    expect(received).toHaveLength(1);
    expect(received[0]!.data).toMatchObject({ channelType: "sms", direction: "inbound", text: "Hello there" });
  });

  it("STOP sets opt_out_sms (a live send is then 409, param to); START clears it", async () => {
    const to = phone();
    const first = await settled(await send("Before STOP", to));
    expect((await fake.postInbound(callbackUrl, { from: to, to: FROM, body: "  stop " })).status).toBe(200);
    expect(await contactOf(first.contact_id)).toMatchObject({ opt_out_sms: true });
    const refused = await live.post("/messages", { channel: "sms", to: { phone: to }, sms: { body: "After STOP" } });
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body.error).toMatchObject({ param: "to" });
    // A body that only contains the word changes nothing.
    expect((await fake.postInbound(callbackUrl, { from: to, to: FROM, body: "START please" })).status).toBe(200);
    expect(await contactOf(first.contact_id)).toMatchObject({ opt_out_sms: true });
    expect((await fake.postInbound(callbackUrl, { from: to, to: FROM, body: "Start" })).status).toBe(200);
    expect(await contactOf(first.contact_id)).toMatchObject({ opt_out_sms: false });
    expect((await settled(await send("After START", to))).status).toBe("sent");
  });

  it("a disconnected channel records no inbound message and applies no STOP, answering 200", async () => {
    // prettier-ignore
    const other = await svcJson({ ...env, ALLOW_PRIVATE_WEBHOOKS: "1" }, "channel", "connect", "--workspace", ws.id, "--type", "sms",
      "--account-sid", fake.accountSid, "--auth-token", fake.authToken, "--from", "+15017122662", "--api-base-url", fake.url);
    const id = String(other.channel_id);
    await dashboardMutation(ws.id, "channels.disconnect", { channel_id: id });
    const url = `${new URL(callbackUrl).origin}/api/providers/sms/twilio/${id}`;
    const from = phone();
    for (const body of ["Hello after the disconnect", "STOP"]) {
      const res = await fake.postInbound(url, { from, to: "+15017122662", body });
      expect(res.status).toBe(200);
    }
    expect(await sql(`SELECT id FROM messages WHERE workspace_id = $1 AND content->>'from' = $2`, [ws.id, from])).toEqual([]);
    expect(await sql(`SELECT id FROM contacts WHERE workspace_id = $1 AND phone = $2`, [ws.id, from])).toEqual([]);
  });

  it("Twilio's 21610 fails the send and sets opt_out_sms", async () => {
    const to = phone();
    fake.optedOut.add(to);
    const failed = await settled(await send("To an unsubscribed number", to));
    expect(failed).toMatchObject({ status: "failed", error_code: "sms_21610" });
    expect(callsTo(to)).toHaveLength(1);
    expect(await contactOf(failed.contact_id)).toMatchObject({ opt_out_sms: true });
    const refused = await live.post("/messages", { channel: "sms", to: { phone: to }, sms: { body: "Again" } });
    expect(refused.status).toBe(409);
  });
});

describe("refusals (D47, D95)", () => {
  it("a request refused with 429 is retried once and creates one message", async () => {
    const to = phone();
    fake.setMode({ kind: "error", code: 20429 }, { times: 1 });
    const sent = await settled(await send("Busy", to));
    expect(sent.status).toBe("sent");
    const calls = callsTo(to);
    expect(calls).toHaveLength(2);
    expect(calls.filter((c) => c.sid)).toHaveLength(1);
    expect(sent.provider_message_id).toBe(calls[1]!.sid);
    // Never a third call: the message is sent.
    await new Promise((r) => setTimeout(r, 500));
    expect(callsTo(to)).toHaveLength(2);
  }, 60_000);

  it("a send whose answer was lost is settled by its status callback, found by the message id in its URL (D47)", async () => {
    const to = phone();
    fake.setMode({ kind: "drop" }, { times: 1 });
    const id = await send("Lost answer", to);
    const [call] = await until(
      () => callsTo(to),
      (calls) => calls.length === 1,
    );
    await until(
      () => message(id),
      (m) => m.error_code === "provider_timeout",
    );
    const url = call!.form.StatusCallback!;
    const params = new URLSearchParams([
      ["MessageSid", "SMlostanswer"],
      ["MessageStatus", "delivered"],
      ["AccountSid", fake.accountSid],
    ]);
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "x-twilio-signature": twilioSignature(fake.authToken, url, params) },
      body: params.toString(),
    });
    expect(res.status).toBe(200);
    expect(await message(id)).toMatchObject({ status: "delivered", provider_message_id: "SMlostanswer", error_code: null });
    expect(callsTo(to)).toHaveLength(1);
  });

  it("an error answer is final: sms_<code> after one call", async () => {
    const to = phone();
    fake.setMode({ kind: "error", code: 21408 }, { times: 1 });
    const failed = await settled(await send("Region", to));
    expect(failed).toMatchObject({ status: "failed", error_code: "sms_21408" });
    expect(callsTo(to)).toHaveLength(1);
  });
});

describe("segments (D97)", () => {
  it.each([
    ["GSM-7, 160 characters", "a".repeat(160), { encoding: "GSM-7", segments: 1 }],
    ["GSM-7, 161 characters", "a".repeat(161), { encoding: "GSM-7", segments: 2 }],
    ["an extension character counts two", `${"a".repeat(159)}€`, { encoding: "GSM-7", segments: 2 }],
    ["UCS-2, 70 characters", `Ação ${"b".repeat(65)}`, { encoding: "UCS-2", segments: 1 }],
    ["UCS-2, 71 characters", `Ação ${"b".repeat(66)}`, { encoding: "UCS-2", segments: 2 }],
    ["an emoji counts two", `${"c".repeat(69)}😀`, { encoding: "UCS-2", segments: 2 }],
  ])("%s", async (_, body, expected) => {
    const id = await send(body, phone(), test);
    expect((await message(id, test)).sms).toEqual(expected);
  });

  it("GET /usage counts the live sms and their segments at acceptance, and a cancel gives them back", async () => {
    const usage = () => live.get("/usage").then((r) => r.body);
    const before = await usage();
    const id = await send("d".repeat(200));
    expect((await message(id)).sms).toEqual({ encoding: "GSM-7", segments: 2 });
    const after = await usage();
    expect(after.sms).toBe(before.sms + 1);
    expect(after.sms_segments).toBe(before.sms_segments + 2);
    expect(after.total).toBe(before.total + 1);

    // D76 with D97: a scheduled sms of three segments counts when accepted, and its cancel gives all three back.
    const sendAt = new Date(Date.now() + 3_600_000).toISOString();
    const scheduled = await live.post("/messages", {
      channel: "sms",
      to: { phone: phone() },
      sms: { body: "e".repeat(307) },
      send_at: sendAt,
    });
    expect(scheduled.status, scheduled.text).toBe(202);
    expect(scheduled.body.sms).toEqual({ encoding: "GSM-7", segments: 3 });
    expect(await usage()).toMatchObject({ sms: after.sms + 1, sms_segments: after.sms_segments + 3 });
    expect((await live.post(`/messages/${scheduled.body.id}/cancel`)).status).toBe(200);
    expect(await usage()).toMatchObject({ sms: after.sms, sms_segments: after.sms_segments });
  });
});

describe("journeys (D94)", () => {
  it("a flow's send step with channel sms sends through the channel, with its segments", async () => {
    const flow = await live.post("/flows", {
      name: `SMS journey ${Date.now()}`,
      status: "active",
      steps: [{ id: "code", type: "send", channel: "sms", sms: { body: "Olá {{name}}, your code is ready." } }],
    });
    expect(flow.status, flow.text).toBe(201);
    const to = phone();
    await live.post("/contacts", { phone: to, name: "Ana" });
    const run = await live.post(`/flows/${flow.body.id}/enroll`, { to: { phone: to } });
    expect(run.status, run.text).toBe(201);
    const [call] = await until(
      () => callsTo(to),
      (calls) => calls.length === 1,
      30_000,
    );
    expect(call!.form).toMatchObject({ Body: "Olá Ana, your code is ready.", From: FROM });
    expect(call!.form.StatusCallback!.startsWith(`${callbackUrl}?message_id=msg_`)).toBe(true);
    const [row] = await sql(`SELECT id FROM messages WHERE workspace_id = $1 AND "to" = $2 AND source = 'flow'`, [ws.id, to]);
    expect(await message(String(row!.id))).toMatchObject({ channel: "sms", sms: { encoding: "UCS-2", segments: 1 } });
  });
});
