import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api, expectError, fixtures } from "../support/client.ts";
import { dashboardMutation, dashboardQuery } from "../support/dashboard.ts";
import { queryDatabase } from "../support/database.ts";
import { contactEvents } from "../support/events.ts";
import { FIXTURE_ADMIN } from "../support/fixtures.ts";
import { postWebhook, startFakeWhatsApp, type FakeWhatsApp, type FakeWhatsAppMode } from "../support/fake-whatsapp.ts";
import { svc, svcJson } from "../support/svc.ts";
import { poll } from "../support/until.ts";
import { HELLO, HELLO_TEMPLATE } from "../support/whatsapp-window.ts";

// D90 over the real paths: the local Cloud API answers each of Meta's refusals as Meta does.
// Those that refused the request (130429, 131056, 131057, a bare 429 or 503) are retried and the
// message goes out on the next call; every other error fails it at once, after one call.
// 131050 records the contact's marketing opt-out; 131042 and 368 pause the channel until
// `svc channel resume` (or the dashboard) resumes it, with their events; a throughput upgrade
// lifts the number's pace to 1,000 messages/s.
const ws = fixtures().refusals!;
const live = api(ws.keys.live);
const { baseUrl, env } = inject("api");
const phoneNumberId = String(100_000_000 + Math.floor(Math.random() * 899_999_999));
const wabaId = String(200_000_000 + Math.floor(Math.random() * 799_999_999));
const appSecret = `secret-${randomUUID()}`;
const sql = (text: string, params: unknown[] = []) => queryDatabase(env, text, params);
let fake: FakeWhatsApp;
let channelId = "";

const PROMO_TEMPLATE = {
  name: "promo",
  language: "en_US",
  status: "APPROVED" as const,
  category: "MARKETING" as const,
  components: [{ type: "BODY", text: "Our sale starts today." }],
};
const PROMO = { template: { name: PROMO_TEMPLATE.name, language: PROMO_TEMPLATE.language } };

let n = 0;
const phone = () => `+55119${String(30_000_000 + ((Date.now() + n++ * 7919) % 59_999_999)).slice(-8)}`;

type Channel = { id: string; status: string; paused_reason: string | null; rate_per_second: number };
const channel = async () =>
  (await dashboardQuery<Channel[]>(ws.id, "channels.list", { include_disconnected: false })).find((c) => c.id === channelId)!;

beforeAll(async () => {
  fake = await startFakeWhatsApp({ latencyMs: 5 });
  fake.templates.set(wabaId, [HELLO_TEMPLATE, PROMO_TEMPLATE]);
  // prettier-ignore
  const connected = await svcJson({ ...env, ALLOW_PRIVATE_WEBHOOKS: "1" }, "channel", "connect", "--workspace", ws.id, "--type", "whatsapp",
    "--phone-number-id", phoneNumberId, "--waba-id", wabaId, "--access-token", "t", "--app-secret", appSecret, "--verify-token", "v",
    "--api-base-url", fake.url);
  channelId = String(connected.channel_id);
}, 120_000);

afterAll(async () => {
  await fake?.close();
});

/** Sends a live template message; its id. */
async function send(whatsapp: unknown = HELLO, to = phone()): Promise<string> {
  const res = await live.post("/messages", { channel: "whatsapp", to: { phone: to }, whatsapp });
  expect(res.status, res.text).toBe(202);
  return res.body.id;
}

const settled = (id: string, timeoutMs = 30_000) =>
  poll(
    () => live.get(`/messages/${id}`),
    (r) => r.body.status === "sent" || r.body.status === "failed",
    timeoutMs,
    100,
  ).then((r) => r.body);

/** The Cloud API's calls for one message (each send carries its id as biz_opaque_callback_data). */
const callsFor = (id: string) => fake.requests.filter((r) => r.body?.biz_opaque_callback_data === id);

async function journey(whatsapp: unknown): Promise<string> {
  const { flow_id } = await dashboardMutation<{ flow_id: string }>(ws.id, "flows.create", {
    definition: {
      name: `Refusals ${randomUUID().slice(0, 8)}`,
      status: "active",
      steps: [{ type: "send", channel: "whatsapp", whatsapp }],
    },
  });
  return flow_id;
}

/** Enrolls a contact in a one-step flow; the skip of its send step, once the run ended. */
async function skipOf(flowId: string, to: Record<string, string>) {
  const res = await live.post(`/flows/${flowId}/enroll`, { to });
  expect(res.status, res.text).toBe(201);
  const run = await poll(
    () =>
      dashboardQuery<{ status: string; history: { kind: string; detail: Record<string, unknown> }[] }>(ws.id, "flows.run", {
        run_id: res.body.id,
      }),
    (r) => r.status !== "active",
    20_000,
  );
  return run.history.find((h) => h.kind === "skipped")?.detail ?? null;
}

/** The audit log's entries for resuming the channel, oldest first. */
const resumedAudit = async () =>
  (
    await sql(
      `SELECT actor_type, actor_label, detail FROM audit_events
       WHERE workspace_id = $1 AND action = 'channel.resumed' AND target_type = 'channel' AND target_id = $2 ORDER BY created_at, id`,
      [ws.id, channelId],
    )
  ).map((r) => ({ actor_type: r.actor_type, actor_label: r.actor_label, detail: r.detail }));

const channelEvents = async (name: string) =>
  (await sql(`SELECT data FROM events WHERE workspace_id = $1 AND name = $2 ORDER BY created_at`, [ws.id, name])).map((r) => r.data);

describe("WhatsApp refusals (D90)", () => {
  const notNow: [string, FakeWhatsAppMode][] = [
    ["130429", { kind: "refusal", code: 130429 }],
    ["131056", { kind: "refusal", code: 131056 }],
    ["131057", { kind: "refusal", code: 131057 }],
    ["HTTP 429", { kind: "status", status: 429 }],
    ["HTTP 503", { kind: "status", status: 503 }],
  ];
  it.each(notNow)(
    "%s refused the request: retried with backoff, sent by the next call",
    async (_, mode) => {
      fake.setMode(mode, { times: 1 });
      const id = await send();
      const message = await settled(id);
      expect(message.status).toBe("sent");
      // One refused call and one accepted: the refusal did not count as a call that may have sent it (D47).
      const calls = callsFor(id);
      expect(calls.length).toBe(2);
      expect(calls.filter((c) => c.wamid).length).toBe(1);
      expect(message.provider_message_id).toBe(calls[1]!.wamid);
      const retries = await sql(`SELECT detail FROM message_history WHERE workspace_id = $1 AND message_id = $2 AND kind = 'retry'`, [
        ws.id,
        id,
      ]);
      expect(retries.length).toBe(1);
      expect(Number((retries[0]!.detail as { retry_in_ms: number }).retry_in_ms)).toBeGreaterThanOrEqual(1000);
    },
    60_000,
  );

  const final: [string, FakeWhatsAppMode, string | null][] = [
    ["HTTP 500", { kind: "status", status: 500 }, null],
    ["131000 on a 503", { kind: "graph_error", status: 503, code: 131000 }, "131000"],
    ["131048", { kind: "graph_error", code: 131048 }, "131048"],
    ["131026", { kind: "graph_error", code: 131026 }, "131026"],
  ];
  it.each(final)(
    "%s is final: the message fails after one call",
    async (_, mode, code) => {
      fake.setMode(mode, { times: 1 });
      const id = await send();
      const message = await settled(id);
      expect(message).toMatchObject({ status: "failed", error_code: code });
      expect(callsFor(id).length).toBe(1);
    },
    60_000,
  );

  it("131050 records the contact's marketing opt-out: later marketing templates are refused, other templates go", async () => {
    const to = phone();
    fake.setMode({ kind: "refusal", code: 131050 }, { times: 1 });
    const first = await settled(await send(PROMO, to));
    expect(first).toMatchObject({ status: "failed", error_code: "131050" });
    const contact = (await live.get(`/contacts/${first.contact_id}`)).body;
    expect(contact).toMatchObject({ whatsapp_marketing_opt_out: true, opt_out_whatsapp: false });
    // Recorded as any change of the contact: contato.atualizado with the contact as it now is.
    const updated = (await contactEvents(ws.id, first.contact_id)).filter((e) => e.event === "contato.atualizado");
    expect(updated).toHaveLength(1);
    expect(updated[0]!.data).toMatchObject({ id: first.contact_id, whatsapp_marketing_opt_out: true, updated_at: contact.updated_at });

    const refused = await live.post("/messages", { channel: "whatsapp", to: { phone: to }, whatsapp: PROMO });
    expectError(refused, { status: 409, type: "conflict", code: "marketing_opted_out", param: "to" });
    const calls = fake.requests.length;
    // A utility template still goes.
    expect((await settled(await send(HELLO, to))).status).toBe("sent");
    expect(fake.requests.length).toBe(calls + 1);

    // A journey's marketing step skips the contact with reason opted_out (D81).
    const skip = await skipOf(await journey(PROMO), { contact_id: first.contact_id });
    expect(skip).toMatchObject({ code: "marketing_opted_out", skip: "opted_out" });
  }, 90_000);

  const pauses: [number, string, "cli" | "dashboard"][] = [
    [131042, "payment", "cli"],
    [368, "policy", "dashboard"],
  ];
  it.each(pauses)(
    "%i pauses the channel (%s) until it is resumed from the %s, with canal.pausado, canal.retomado and an audit entry",
    async (code, reason, by) => {
      const pausedBefore = (await channelEvents("canal.pausado")).length;
      fake.setMode({ kind: "refusal", code: code as 131042 | 368 }, { times: 1 });
      const failed = await settled(await send());
      expect(failed).toMatchObject({ status: "failed", error_code: String(code) });
      expect(await channel()).toMatchObject({ status: "paused", paused_reason: reason });
      const paused = await channelEvents("canal.pausado");
      expect(paused.length).toBe(pausedBefore + 1);
      expect(paused.at(-1)).toMatchObject({ channel_id: channelId, type: "whatsapp", status: "paused", reason });

      // While paused: live sends are 409 on the channel, named or not; journeys skip with no_channel.
      const calls = fake.requests.length;
      const to = phone();
      expectError(await live.post("/messages", { channel: "whatsapp", to: { phone: to }, whatsapp: HELLO }), {
        status: 409,
        type: "conflict",
        code: "channel_paused",
        param: "channel",
      });
      expectError(await live.post("/messages", { channel: "whatsapp", channel_id: channelId, to: { phone: to }, whatsapp: HELLO }), {
        status: 409,
        type: "conflict",
        code: "channel_paused",
        param: "channel",
      });
      expect(await skipOf(await journey(HELLO), { phone: to })).toMatchObject({ code: "channel_paused", skip: "no_channel" });
      expect(fake.requests.length).toBe(calls);

      // One pause resumed by the operator, the other from the dashboard: one service, one audit entry each.
      const resumed =
        by === "cli"
          ? await svcJson(env, "channel", "resume", "--workspace", ws.id, "--channel", channelId)
          : await dashboardMutation(ws.id, "channels.resume", { channel_id: channelId });
      expect(resumed).toEqual({ channel_id: channelId, status: "connected" });
      expect(await channel()).toMatchObject({ status: "connected", paused_reason: null });
      expect((await channelEvents("canal.retomado")).at(-1)).toMatchObject({ channel_id: channelId, status: "connected", reason });
      expect((await resumedAudit()).at(-1)).toEqual({
        actor_type: by === "cli" ? "cli" : "user",
        actor_label: by === "cli" ? null : FIXTURE_ADMIN.email,
        detail: { type: "whatsapp", reason },
      });
      expect((await settled(await send(HELLO, to))).status).toBe("sent");
    },
    120_000,
  );

  it("svc channel resume refuses an unknown channel and leaves a connected one as it is, auditing nothing", async () => {
    const audited = (await resumedAudit()).length;
    const again = await svcJson(env, "channel", "resume", "--workspace", ws.id, "--channel", channelId);
    expect(again).toEqual({ channel_id: channelId, status: "connected" });
    expect(await resumedAudit()).toHaveLength(audited);
    const unknown = await svc(env, "channel", "resume", "--workspace", ws.id, "--channel", "ch_nope", "--json");
    expect(unknown.code).not.toBe(0);
    expect(JSON.parse(unknown.stdout).error).toMatchObject({ code: "resource_missing" });
  }, 60_000);

  it("a THROUGHPUT_UPGRADE lifts the number's pace from 80 to 1,000 messages/s", async () => {
    expect((await channel()).rate_per_second).toBe(80);
    const body = {
      object: "whatsapp_business_account",
      entry: [
        {
          id: wabaId,
          time: Math.floor(Date.now() / 1000),
          changes: [
            {
              field: "phone_number_quality_update",
              value: { display_phone_number: "15550001111", event: "THROUGHPUT_UPGRADE", current_limit: "TIER_UNLIMITED" },
            },
          ],
        },
      ],
    };
    const res = await postWebhook(`${baseUrl}/api/providers/whatsapp`, body, appSecret);
    expect(res.status).toBe(200);
    expect((await channel()).rate_per_second).toBe(1000);
  }, 30_000);
});
