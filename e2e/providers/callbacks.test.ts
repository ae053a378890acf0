import { randomBytes } from "node:crypto";
import { ZodError } from "zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectChannel } from "../../server/channels/connect-channel.ts";
import { disconnectChannel } from "../../server/channels/disconnect-channel.ts";
import { listChannels } from "../../server/channels/list-channels.ts";
import { loadChannel } from "../../server/providers/load-channel.ts";
import { sendTestMessage } from "../../server/channels/send-test-message.ts";
import { upsertContact } from "../../server/contacts/upsert-contact.ts";
import type { Database } from "../../server/db/client.ts";
import { env } from "../../server/lib/env.ts";
import { AppError } from "../../server/lib/errors.ts";
import { newId } from "../../server/lib/ids.ts";
import { handleEmailEvent, recordEmailOpen, unsubscribeByToken, unsubscribeTarget } from "../../server/inbound/email-callbacks.ts";
import { signToken } from "../../server/providers/email-token.ts";
import { closeSmtpTransports } from "../../server/providers/smtp.ts";
import { handleWhatsAppWebhook, verifyHandshake } from "../../server/inbound/whatsapp-webhook.ts";
import { createWorkspace } from "../../server/workspaces/create-workspace.ts";
import { inboundTextWebhook, signWebhook, startFakeWhatsApp, statusWebhook, type FakeWhatsApp } from "../support/fake-whatsapp.ts";
import { startSmtpSink, type SmtpSink } from "../support/smtp-sink.ts";
import { memoryDatabase } from "./memory-database.ts";
import { OPERATOR } from "../../server/lib/caller.ts";

// Channels and the provider callbacks against a real database (an in-memory PGlite with the
// migrations): connecting, the WhatsApp webhook (handshake, signature, status reports, stop
// words) and the e-mail callbacks (open tracking, one-click unsubscribe, the events endpoint).

let database: Database;
let fake: FakeWhatsApp;
let sink: SmtpSink;
let workspace = "";
let other = "";
let whatsapp = { id: "", appSecret: "app-secret-1", phoneNumberId: "106540352242922" };
let email = { id: "", token: "" };
let contactId = "";

async function message(opts: {
  channel: "whatsapp" | "email";
  channelId: string;
  providerMessageId?: string;
  status?: "queued" | "sent" | "delivered" | "read";
}) {
  const id = newId("message");
  await database.prisma.message.create({
    data: {
      id,
      workspaceId: workspace,
      mode: "live",
      channel: opts.channel,
      channelId: opts.channelId,
      contactId,
      to: opts.channel === "whatsapp" ? "+5511987654321" : "ana@example.com",
      status: opts.status ?? "sent",
      content: {},
      providerMessageId: opts.providerMessageId ?? null,
      sentAt: opts.status === "queued" ? null : new Date(),
    },
  });
  return id;
}

const state = (id: string) =>
  database.prisma.message.findFirstOrThrow({
    where: { id },
    select: { status: true, error: true, sentAt: true, deliveredAt: true, readAt: true, failedAt: true },
  });
const history = (id: string) =>
  database.prisma.messageHistory.findMany({
    where: { messageId: id },
    orderBy: { id: "asc" },
    select: { kind: true, status: true, detail: true },
  });
const events = (data: string) =>
  database
    .query<{ name: string }>(`SELECT name FROM events WHERE data->>'id' = $1 ORDER BY created_at, id`, [data])
    .then((r) => r.map((e) => e.name));
const wamid = () => `wamid.${randomBytes(12).toString("base64url")}`;

beforeAll(async () => {
  database = await memoryDatabase();
  fake = await startFakeWhatsApp();
  sink = await startSmtpSink();
  workspace = (await createWorkspace(database, { name: "Acme" }, OPERATOR)).id;
  other = (await createWorkspace(database, { name: "Other" }, OPERATOR)).id;
  const wa = await connectChannel(
    database,
    workspace,
    {
      type: "whatsapp",
      phone_number_id: whatsapp.phoneNumberId,
      access_token: "EAAG-token",
      app_secret: whatsapp.appSecret,
      verify_token: "verify-me",
      api_base_url: fake.url,
    },
    OPERATOR,
  );
  whatsapp = { ...whatsapp, id: wa.channel_id };
  const em = await connectChannel(database, workspace, { type: "email", smtp_url: sink.url, from: "News@Shop.Example.com" }, OPERATOR);
  email = { id: em.channel_id, token: em.events_token! };
  contactId = (
    await upsertContact(
      database,
      { workspaceId: workspace, mode: "live" },
      { phone: "+5511987654321", email: "ana@example.com", name: "Ana" },
    )
  ).id;
});

afterAll(async () => {
  closeSmtpTransports();
  await fake?.close();
  await sink?.close();
  await database?.close();
});

describe("channels", () => {
  it("stores secrets sealed and shows only which are set", async () => {
    const row = await database.prisma.channel.findFirstOrThrow({ where: { id: whatsapp.id } });
    expect(row.secrets).toMatch(/^v1\./);
    expect(row.secrets).not.toContain("EAAG-token");
    expect(row).toMatchObject({
      type: "whatsapp",
      externalId: whatsapp.phoneNumberId,
      ratePerSecond: 80,
      settings: { api_base_url: fake.url },
    });

    const listed = await listChannels(database, workspace);
    expect(listed.map((c) => c.id)).toEqual([whatsapp.id, email.id]);
    const [wa, em] = listed;
    expect(wa).toMatchObject({
      name: `WhatsApp ${whatsapp.phoneNumberId}`,
      secrets_set: ["access_token", "app_secret", "verify_token"],
      secrets_readable: true,
      callback_url: `${env().appUrl}/api/providers/whatsapp`,
      disconnected_at: null,
    });
    expect(em).toMatchObject({
      external_id: "News@shop.example.com",
      settings: { from: "News@shop.example.com", smtp_server: sink.url },
      secrets_set: ["smtp_url", "events_token"],
      rate_per_second: 10,
    });
    expect(JSON.stringify(listed)).not.toMatch(/EAAG-token|app-secret-1|verify-me|ch_[^"]*\.[A-Za-z0-9]{40}/);
    expect(await listChannels(database, other)).toEqual([]);
  });

  it("loads a channel with its secrets decrypted", async () => {
    expect(await loadChannel(database, whatsapp.id)).toEqual({
      id: whatsapp.id,
      workspaceId: workspace,
      type: "whatsapp",
      externalId: whatsapp.phoneNumberId,
      settings: { api_base_url: fake.url },
      secrets: { access_token: "EAAG-token", app_secret: whatsapp.appSecret, verify_token: "verify-me" },
      ratePerSecond: 80,
      pausedReason: null,
    });
    expect((await loadChannel(database, email.id))?.secrets).toEqual({ smtp_url: sink.url, events_token: email.token });
    expect(email.token.startsWith(`${email.id}.`)).toBe(true);
    expect(await loadChannel(database, "ch_nope")).toBeNull();
  });

  it("defaults the Graph API base and validates input", async () => {
    const wa = await connectChannel(
      database,
      other,
      {
        type: "whatsapp",
        phone_number_id: "123",
        access_token: "t",
        app_secret: "s",
        verify_token: "v",
      },
      OPERATOR,
    );
    expect(wa.channel.settings.api_base_url).toBe("https://graph.facebook.com/v21.0");
    await expect(
      connectChannel(database, other, { type: "email", smtp_url: "http://relay.example.com", from: "a@example.com" }, OPERATOR),
    ).rejects.toBeInstanceOf(ZodError);
    await expect(
      connectChannel(
        database,
        other,
        { type: "whatsapp", phone_number_id: "abc", access_token: "t", app_secret: "s", verify_token: "v" },
        OPERATOR,
      ),
    ).rejects.toBeInstanceOf(ZodError);
    await expect(
      connectChannel(database, other, { type: "email", smtp_url: "smtp://relay.example.com", from: "not an address" }, OPERATOR),
    ).rejects.toMatchObject({
      code: "invalid_email",
      param: "from",
    });
  });

  it("refuses private provider hosts unless ALLOW_PRIVATE_WEBHOOKS=1 (D34)", async () => {
    const config = env();
    config.allowPrivateWebhooks = false;
    try {
      for (const [input, param] of [
        [
          {
            type: "whatsapp",
            phone_number_id: "1",
            access_token: "t",
            app_secret: "s",
            verify_token: "v",
            api_base_url: "http://127.0.0.1:9/v21.0",
          },
          "api_base_url",
        ],
        [
          { type: "whatsapp", phone_number_id: "1", access_token: "t", app_secret: "s", verify_token: "v", api_base_url: "http://[::1]:9" },
          "api_base_url",
        ],
        [
          {
            type: "whatsapp",
            phone_number_id: "1",
            access_token: "t",
            app_secret: "s",
            verify_token: "v",
            api_base_url: "http://169.254.169.254/latest",
          },
          "api_base_url",
        ],
        [{ type: "email", smtp_url: "smtp://user:pw@localhost:25", from: "a@example.com" }, "smtp_url"],
        [{ type: "email", smtp_url: "smtps://10.0.0.5", from: "a@example.com" }, "smtp_url"],
      ] as const) {
        const err = await connectChannel(database, other, input, OPERATOR).catch((e: unknown) => e);
        expect(err, JSON.stringify(input)).toBeInstanceOf(AppError);
        expect(err).toMatchObject({ type: "invalid_request", code: "private_address", param });
      }
      // A public address passes the check (IP literal: no DNS needed).
      const ok = await connectChannel(
        database,
        other,
        { type: "email", smtp_url: "smtp://93.184.215.14:587", from: "a@example.com" },
        OPERATOR,
      );
      expect(ok.channel_id).toMatch(/^ch_/);
    } finally {
      config.allowPrivateWebhooks = true;
    }
  });

  it("disconnects: not listed, not loaded for sending, not found from another workspace", async () => {
    const extra = await connectChannel(database, workspace, { type: "email", smtp_url: sink.url, from: "old@example.com" }, OPERATOR);
    await expect(disconnectChannel(database, other, extra.channel_id, OPERATOR)).rejects.toMatchObject({
      code: "resource_missing",
      param: "channel_id",
    });
    expect(await disconnectChannel(database, workspace, extra.channel_id, OPERATOR)).toEqual({ disconnected: true });
    expect(await disconnectChannel(database, workspace, extra.channel_id, OPERATOR)).toEqual({ disconnected: true });
    expect((await listChannels(database, workspace)).map((c) => c.id)).not.toContain(extra.channel_id);
    const all = await listChannels(database, workspace, { includeDisconnected: true });
    expect(all.find((c) => c.id === extra.channel_id)?.disconnected_at).toEqual(expect.any(String));
    expect(await loadChannel(database, extra.channel_id)).toBeNull();
    expect(await loadChannel(database, extra.channel_id, { includeDisconnected: true })).not.toBeNull();
  });
});

describe("send a test message", () => {
  it("calls the provider directly and records nothing", async () => {
    const before = await database.prisma.message.count();
    fake.reset();
    const wa = await sendTestMessage(database, workspace, { channel_id: whatsapp.id, to: "+55 11 98765-4321", text: "Testing" });
    expect(wa).toMatchObject({ to: "+5511987654321", outcome: "accepted", provider_message_id: fake.requests[0]!.wamid, error: null });
    expect(fake.requests[0]!.body).toMatchObject({ to: "5511987654321", text: { body: "Testing" } });

    sink.reset();
    const em = await sendTestMessage(database, workspace, { channel_id: email.id, to: "Ana@Example.com", text: "Line 1\n<b>not bold</b>" });
    expect(em).toMatchObject({ to: "Ana@example.com", outcome: "accepted" });
    expect(sink.messages[0]!.raw).toContain("&lt;b&gt;not bold&lt;/b&gt;");

    fake.setMode({ kind: "graph_error", code: 131026, message: "Message undeliverable" }, { times: 1 });
    expect(await sendTestMessage(database, workspace, { channel_id: whatsapp.id, to: "+5511987654321", text: "x" })).toMatchObject({
      outcome: "permanent",
      error: "Message undeliverable (code 131026)",
    });
    expect(await database.prisma.message.count()).toBe(before);
    await expect(sendTestMessage(database, other, { channel_id: whatsapp.id, to: "+5511987654321", text: "x" })).rejects.toMatchObject({
      code: "resource_missing",
    });
  });
});

describe("WhatsApp webhook", () => {
  const post = (payload: unknown, secret: string | null = whatsapp.appSecret) => {
    const raw = JSON.stringify(payload);
    return handleWhatsAppWebhook(database, Buffer.from(raw), secret === null ? null : signWebhook(raw, secret));
  };

  it("answers Meta's handshake with the challenge for a channel's verify token only", async () => {
    const params = (o: Record<string, string>) => new URLSearchParams(o);
    expect(
      await verifyHandshake(database, params({ "hub.mode": "subscribe", "hub.verify_token": "verify-me", "hub.challenge": "1158201444" })),
    ).toBe("1158201444");
    expect(
      await verifyHandshake(database, params({ "hub.mode": "subscribe", "hub.verify_token": "wrong", "hub.challenge": "1" })),
    ).toBeNull();
    expect(
      await verifyHandshake(database, params({ "hub.mode": "unsubscribe", "hub.verify_token": "verify-me", "hub.challenge": "1" })),
    ).toBeNull();
    expect(await verifyHandshake(database, params({ "hub.mode": "subscribe", "hub.challenge": "1" }))).toBeNull();
  });

  it("applies a signed status report to the message it is about", async () => {
    const id = wamid();
    const msg = await message({ channel: "whatsapp", channelId: whatsapp.id, providerMessageId: id });
    const at = Math.floor(Date.now() / 1000) + 2;
    const outcome = await post(statusWebhook(whatsapp.phoneNumberId, [{ wamid: id, status: "delivered", timestamp: at }]));
    expect(outcome).toMatchObject({ status: 200, body: { ok: true }, summary: { applied: 1, unmatched: 0 } });
    expect(await state(msg)).toMatchObject({ status: "delivered", deliveredAt: new Date(at * 1000) });
    // A report stamped before the message was sent (whole seconds, clock skew) keeps the order.
    const early = wamid();
    const earlyMsg = await message({ channel: "whatsapp", channelId: whatsapp.id, providerMessageId: early });
    await post(statusWebhook(whatsapp.phoneNumberId, [{ wamid: early, status: "delivered", timestamp: at - 60 }]));
    const earlyState = await state(earlyMsg);
    expect(earlyState.deliveredAt!.getTime()).toBeGreaterThanOrEqual(earlyState.sentAt!.getTime());
    const last = (await history(msg)).at(-1);
    expect(last).toMatchObject({ kind: "provider_report", status: "delivered", detail: { id, status: "delivered", applied: true } });
    expect(await events(msg)).toEqual(["mensagem.entregue"]);
  });

  it("read for a sent message passes through delivered; a late delivered changes nothing (D8)", async () => {
    const id = wamid();
    const msg = await message({ channel: "whatsapp", channelId: whatsapp.id, providerMessageId: id });
    expect((await post(statusWebhook(whatsapp.phoneNumberId, [{ wamid: id, status: "read" }]))).summary).toMatchObject({ applied: 1 });
    expect((await post(statusWebhook(whatsapp.phoneNumberId, [{ wamid: id, status: "delivered" }]))).summary).toMatchObject({ ignored: 1 });
    const s = await state(msg);
    expect(s.status).toBe("read");
    expect(s.deliveredAt).not.toBeNull();
    expect(await events(msg)).toEqual(["mensagem.entregue", "mensagem.lida"]);
    expect((await history(msg)).filter((h) => h.kind === "provider_report")).toHaveLength(2);
  });

  it("failed carries the provider's error", async () => {
    const id = wamid();
    const msg = await message({ channel: "whatsapp", channelId: whatsapp.id, providerMessageId: id });
    await post(
      statusWebhook(whatsapp.phoneNumberId, [
        {
          wamid: id,
          status: "failed",
          errors: [{ code: 131026, title: "Message undeliverable", error_data: { details: "Recipient not on WhatsApp" } }],
        },
      ]),
    );
    expect(await state(msg)).toMatchObject({ status: "failed", error: "Message undeliverable (code 131026): Recipient not on WhatsApp" });
  });

  it.each([
    { name: "unsigned", secret: null },
    { name: "signed with the wrong secret", secret: "not-the-app-secret" },
  ])("refuses a report that is $name with 401 and changes nothing", async ({ secret }) => {
    const id = wamid();
    const msg = await message({ channel: "whatsapp", channelId: whatsapp.id, providerMessageId: id });
    const before = await history(msg);
    const outcome = await post(statusWebhook(whatsapp.phoneNumberId, [{ wamid: id, status: "read" }]), secret);
    expect(outcome.status).toBe(401);
    expect(await state(msg)).toMatchObject({ status: "sent" });
    expect(await history(msg)).toEqual(before);
  });

  it("refuses a report for an unknown phone number id, and one whose body was changed after signing", async () => {
    expect((await post(statusWebhook("999999", [{ wamid: wamid(), status: "read" }]))).status).toBe(401);
    const raw = JSON.stringify(statusWebhook(whatsapp.phoneNumberId, [{ wamid: wamid(), status: "read" }]));
    expect((await handleWhatsAppWebhook(database, raw.replace("read", "sent"), signWebhook(raw, whatsapp.appSecret))).status).toBe(401);
  });

  it("answers 400 to a signed body that is not the webhook JSON, 200 to reports of unknown messages", async () => {
    expect((await handleWhatsAppWebhook(database, "not json", signWebhook("not json", whatsapp.appSecret))).status).toBe(400);
    expect(await post(statusWebhook(whatsapp.phoneNumberId, [{ wamid: wamid(), status: "delivered" }]))).toMatchObject({
      status: 200,
      summary: { unmatched: 1 },
    });
  });

  it("a stop word opts the sender out of WhatsApp, with contato.atualizado", async () => {
    expect((await post(inboundTextWebhook(whatsapp.phoneNumberId, "5511987654321", "  parar "))).summary).toMatchObject({ optedOut: 1 });
    const contact = await database.prisma.contact.findFirstOrThrow({ where: { id: contactId } });
    expect(contact.optOutWhatsapp).toBe(true);
    expect(contact.optOutEmail).toBe(false);
    const updated = await database.query<{ name: string; mode: string }>(
      `SELECT name, mode::text AS mode FROM events WHERE contact_id = $1 AND name = 'contato.atualizado' AND (data->>'opt_out_whatsapp')::boolean`,
      [contactId],
    );
    expect(updated).toEqual([{ name: "contato.atualizado", mode: "live" }]);
  });

  it("a stop word from an unknown number records an opted-out contact; another text records a contact who may be written to (D44)", async () => {
    await post(inboundTextWebhook(whatsapp.phoneNumberId, "5521999998888", "STOP"));
    await post(inboundTextWebhook(whatsapp.phoneNumberId, "5521999997777", "stop it please"));
    const contacts = await database.prisma.contact.findMany({
      where: { workspaceId: workspace, phone: { in: ["+5521999998888", "+5521999997777"] } },
      orderBy: { phone: "desc" },
    });
    expect(contacts.map((c) => [c.phone, c.optOutWhatsapp, c.whatsappWindowExpiresAt !== null])).toEqual([
      ["+5521999998888", true, true],
      ["+5521999997777", false, true],
    ]);
  });
});

describe("e-mail callbacks", () => {
  it("the tracking image makes the message read, with delivered first (D39, D8)", async () => {
    const msg = await message({ channel: "email", channelId: email.id, providerMessageId: "<x@shop.example.com>" });
    expect(await recordEmailOpen(database, signToken(msg), { user_agent: "Mail" })).toBe(true);
    const s = await state(msg);
    expect(s.status).toBe("read");
    expect(s.deliveredAt).not.toBeNull();
    expect(s.readAt).not.toBeNull();
    expect(await events(msg)).toEqual(["mensagem.entregue", "mensagem.lida"]);
    expect((await history(msg)).at(-1)).toMatchObject({
      kind: "provider_report",
      status: "read",
      detail: { source: "open_tracking", user_agent: "Mail" },
    });
    // A second open changes nothing.
    expect(await recordEmailOpen(database, signToken(msg))).toBe(false);
  });

  it("a bad or forged token does nothing", async () => {
    const msg = await message({ channel: "email", channelId: email.id });
    expect(await recordEmailOpen(database, `${msg}.AAAAAAAAAAAAAAAAAAAAAA`)).toBe(false);
    expect(await recordEmailOpen(database, signToken(msg, "another-secret-0123456789"))).toBe(false);
    expect(await recordEmailOpen(database, signToken("msg_doesnotexist"))).toBe(false);
    expect(await state(msg)).toMatchObject({ status: "sent" });
    // A WhatsApp message's id is not an e-mail to track.
    const wa = await message({ channel: "whatsapp", channelId: whatsapp.id });
    expect(await recordEmailOpen(database, signToken(wa))).toBe(false);
  });

  it("one-click unsubscribe sets opt_out_email on the message's contact", async () => {
    const msg = await message({ channel: "email", channelId: email.id });
    expect(await unsubscribeTarget(database, signToken(msg))).toBe(true);
    expect(await unsubscribeTarget(database, "junk")).toBe(false);
    expect(await unsubscribeByToken(database, "junk")).toBe("invalid");
    expect(await unsubscribeByToken(database, signToken(msg))).toBe("unsubscribed");
    expect((await database.prisma.contact.findFirstOrThrow({ where: { id: contactId } })).optOutEmail).toBe(true);
    expect(await unsubscribeByToken(database, signToken(msg))).toBe("unsubscribed");
  });

  describe("events endpoint", () => {
    const auth = () => `Bearer ${email.token}`;

    it("refuses a missing or wrong token with 401", async () => {
      const msg = await message({ channel: "email", channelId: email.id });
      for (const header of [null, "Bearer nope", `Bearer ${email.id}.wrong`, `Bearer ${email.token}x`, email.token]) {
        expect((await handleEmailEvent(database, header, { message_id: msg, event: "delivered" })).status, String(header)).toBe(401);
      }
      expect(await state(msg)).toMatchObject({ status: "sent" });
    });

    it("delivered by our message id or by the SMTP Message-ID", async () => {
      const a = await message({ channel: "email", channelId: email.id });
      const deliveredAt = Math.floor(Date.now() / 1000) + 3;
      expect(await handleEmailEvent(database, auth(), { message_id: a, event: "delivered", timestamp: deliveredAt })).toEqual({
        status: 200,
        body: { ok: true, message_id: a, applied: true },
      });
      expect(await state(a)).toMatchObject({ status: "delivered", deliveredAt: new Date(deliveredAt * 1000) });

      const b = await message({ channel: "email", channelId: email.id, providerMessageId: "<0100018c-relay-id@email.example.com>" });
      expect(
        (await handleEmailEvent(database, auth(), { message_id: "0100018c-relay-id@email.example.com", event: "delivered" })).body,
      ).toMatchObject({ message_id: b });
      const c = await message({ channel: "email", channelId: email.id, providerMessageId: `<placeholder@shop.example.com>` });
      expect(
        (
          await handleEmailEvent(database, auth(), {
            message_id: `<${c}@shop.example.com>`,
            event: "delivered",
            timestamp: "2026-11-21T10:00:00Z",
          })
        ).body,
      ).toMatchObject({
        message_id: c,
        applied: true,
      });
    });

    it("bounced makes a sent message failed with the reason; a delivered one stays (D8)", async () => {
      const a = await message({ channel: "email", channelId: email.id });
      await handleEmailEvent(database, auth(), { message_id: a, event: "bounced", reason: "550 5.1.1 user unknown" });
      expect(await state(a)).toMatchObject({ status: "failed", error: "Bounced: 550 5.1.1 user unknown" });
      expect(await events(a)).toEqual(["mensagem.falhou"]);

      const b = await message({ channel: "email", channelId: email.id, status: "delivered" });
      expect((await handleEmailEvent(database, auth(), { message_id: b, event: "bounced" })).body).toMatchObject({ applied: false });
      expect(await state(b)).toMatchObject({ status: "delivered" });
    });

    it("404 for a message of another channel or none; 400 for a bad body", async () => {
      const wa = await message({ channel: "whatsapp", channelId: whatsapp.id });
      expect((await handleEmailEvent(database, auth(), { message_id: wa, event: "delivered" })).status).toBe(404);
      expect((await handleEmailEvent(database, auth(), { message_id: "msg_nope", event: "delivered" })).status).toBe(404);
      expect(await handleEmailEvent(database, auth(), { message_id: "msg_x", event: "opened" })).toMatchObject({
        status: 400,
        body: { error: expect.stringContaining("event") },
      });
      expect((await handleEmailEvent(database, auth(), undefined)).status).toBe(400);
    });
  });
});
