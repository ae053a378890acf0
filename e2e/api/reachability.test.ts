import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api, expectError, fixtures, type ApiResponse } from "../support/client.ts";
import { dashboardMutation } from "../support/dashboard.ts";
import { startFakeWhatsApp, type FakeWhatsApp } from "../support/fake-whatsapp.ts";
import { changedCounts, rowCounts, settledCounts } from "../support/row-counts.ts";
import { startSmtpSink, type SmtpSink } from "../support/smtp-sink.ts";
import { poller } from "../support/until.ts";
import { HELLO, HELLO_TEMPLATE, openWhatsAppWindow } from "../support/whatsapp-window.ts";

// Reachability and dry runs (issue 32, D71 with D81's reasons) over real HTTP on both engines:
// each reason of GET /contacts/{id}/reachability appears when its cause holds and goes when it
// goes, each cause made the real way (channels connected in the dashboard, the window opened by
// a signed inbound message, suppressions, opt-outs, caps, a scheduled live send and its
// cancel); POST /messages with `dry_run` answers the message it would create and writes
// nothing, and refuses what the real send refuses, with the same error. The workspace is this
// file's own (`reach`, one live message a day per channel).
const ws = fixtures().reach!;
const live = api(ws.keys.live);
const test = api(ws.keys.test);
const readOnly = api(ws.keys.readOnly);
const { baseUrl } = inject("api");
const phoneNumberId = String(100_000_000 + Math.floor(Math.random() * 899_999_999));
const wabaId = String(200_000_000 + Math.floor(Math.random() * 799_999_999));
const appSecret = `secret-${randomUUID()}`;
let fake: FakeWhatsApp;
let smtp: SmtpSink;

let seq = 0;
const phone = () => `+55119${String(60_000_000 + ((Date.now() + seq++ * 7919) % 39_999_999)).slice(-8)}`;
const email = (name = "ana") => `${name}.${randomUUID().slice(0, 8)}@example.com`;

type Reachability = {
  contact_id: string;
  whatsapp: { reachable: boolean; reasons: string[]; window: { open: boolean; expires_at: string | null }; template_required: boolean };
  email: { reachable: boolean; reasons: string[] };
  sms: { reachable: boolean; reasons: string[] };
  quiet_hours: { active: boolean; until: string | null };
  time_zone: string;
};

const contact = async (body: Record<string, unknown>, key = live) => {
  const res = await key.post("/contacts", body);
  expect(res.status, res.text).toBeLessThan(300);
  return res.body as { id: string; phone: string | null; email: string | null };
};
const reach = async (id: string, key = live, query = "") => {
  const res = await key.get<Reachability>(`/contacts/${id}/reachability${query}`);
  expect(res.status, res.text).toBe(200);
  return res.body;
};
const mutation = <T>(path: string, input: unknown) => dashboardMutation<T>(ws.id, path, input);
const until = poller(20_000);
/** Waits for a test message's last simulated state (`read`, about 2 s after acceptance, D35). */
const simulated = (id: string) =>
  until(
    () => test.get(`/messages/${id}`),
    (r) => r.body.status === "read",
  );

beforeAll(async () => {
  [fake, smtp] = await Promise.all([startFakeWhatsApp(), startSmtpSink()]);
  fake.templates.set(wabaId, [HELLO_TEMPLATE]);
});

afterAll(async () => {
  await Promise.all([fake?.close(), smtp?.close()]);
});

// The tests of this file run in order: the first connects the workspace's channels.
describe("GET /contacts/{id}/reachability (D71, D81)", () => {
  it("says no_channel until a channel is connected, then whatsapp_window_closed until the contact writes", async () => {
    const ana = await contact({ phone: phone(), email: email(), name: "Ana" });
    const before = await reach(ana.id);
    expect(before).toEqual({
      contact_id: ana.id,
      whatsapp: {
        reachable: false,
        reasons: ["whatsapp_window_closed", "no_channel"],
        window: { open: false, expires_at: null },
        template_required: true,
      },
      email: { reachable: false, reasons: ["no_channel"] },
      sms: { reachable: false, reasons: ["no_channel"] },
      quiet_hours: { active: false, until: null },
      time_zone: "UTC", // Brazil has several zones: the workspace's
    });
    // A test key needs no channel, and simulates an open window.
    expect((await reach(ana.id, test)).whatsapp).toEqual({
      reachable: true,
      reasons: [],
      window: { open: true, expires_at: null },
      template_required: false,
    });
    expect((await reach(ana.id, test)).email).toEqual({ reachable: true, reasons: [] });

    await mutation("channels.connect", {
      type: "whatsapp",
      phone_number_id: phoneNumberId,
      waba_id: wabaId,
      access_token: "token-1",
      app_secret: appSecret,
      verify_token: "verify-1",
      api_base_url: fake.url,
    });
    await mutation("channels.connect", { type: "email", smtp_url: smtp.url, from: "news@shop.example" });
    const connected = await reach(ana.id);
    expect(connected.email).toEqual({ reachable: true, reasons: [] });
    expect(connected.whatsapp).toEqual({
      reachable: false,
      reasons: ["whatsapp_window_closed"],
      window: { open: false, expires_at: null },
      template_required: true,
    });

    await openWhatsAppWindow(baseUrl, { phoneNumberId, appSecret }, ana.phone!);
    const open = await reach(ana.id, readOnly);
    expect(open.whatsapp).toMatchObject({ reachable: true, reasons: [], window: { open: true }, template_required: false });
    const expires = Date.parse(open.whatsapp.window.expires_at!);
    expect(expires - Date.now()).toBeGreaterThan(23 * 3600_000);
    expect(expires - Date.now()).toBeLessThanOrEqual(24 * 3600_000);
  });

  it("says no_address, opted_out and recipient_suppressed while each holds, and not once it is gone", async () => {
    const to = phone();
    const bia = await contact({ phone: to });
    await openWhatsAppWindow(baseUrl, { phoneNumberId, appSecret }, to);
    expect((await reach(bia.id)).email.reasons).toEqual(["no_address"]);
    const address = email("bia");
    await contact({ phone: to, email: address });
    expect(await reach(bia.id)).toMatchObject({ whatsapp: { reachable: true, reasons: [] }, email: { reachable: true, reasons: [] } });

    await contact({ phone: to, opt_out_whatsapp: true, opt_out_email: true });
    const opted = await reach(bia.id);
    expect(opted.whatsapp.reasons).toEqual(["opted_out"]);
    expect(opted.email.reasons).toEqual(["opted_out"]);
    await contact({ phone: to, opt_out_whatsapp: false, opt_out_email: false });

    expect((await live.post("/suppressions", { email: address })).status).toBe(201);
    expect((await reach(bia.id)).email).toEqual({ reachable: false, reasons: ["recipient_suppressed"] });
    // A live suppression is not a test key's: its own list is empty.
    expect((await reach(bia.id, test)).email.reasons).toEqual([]);
    // Opted out and suppressed: every reason that holds is listed.
    await contact({ phone: to, opt_out_email: true });
    expect((await reach(bia.id)).email.reasons).toEqual(["opted_out", "recipient_suppressed"]);
    await contact({ phone: to, opt_out_email: false });
    expect((await live.request("DELETE", `/suppressions/${encodeURIComponent(address)}`)).status).toBe(200);
    expect(await reach(bia.id)).toMatchObject({ whatsapp: { reachable: true, reasons: [] }, email: { reachable: true, reasons: [] } });
  });

  it("says frequency_capped under the workspace's cap, and with flow_id under the flow's, with its quiet hours", async () => {
    const cris = await contact({ phone: phone(), email: email("cris"), time_zone: "UTC" });
    // Caps count every message of the mode (API sends too): a test e-mail makes the test count 1.
    const sent = await test.post("/messages", { channel: "email", to: { contact_id: cris.id }, email: { html: "<p>Hi</p>" } });
    expect(sent.status, sent.text).toBe(202);
    await simulated(sent.body.id);
    expect((await reach(cris.id, test)).email.reasons).toEqual([]);
    await mutation("settings.update", { caps: { email: { count: 1, period: "P1D" } } });
    try {
      expect((await reach(cris.id, test)).email).toEqual({ reachable: false, reasons: ["frequency_capped"] });
      // Counted per mode: no live message went to the contact.
      expect((await reach(cris.id)).email.reasons).toEqual([]);
    } finally {
      await mutation("settings.update", { caps: { email: null } });
    }
    expect((await reach(cris.id, test)).email.reasons).toEqual([]);

    // A flow's quiet hours around now (in UTC, the contact's zone) and its own cap.
    // The end is read once: computed again at the check, it moved on when a minute turned between the two (a loaded run).
    const hhmm = (offsetMinutes: number) => new Date(Date.now() + offsetMinutes * 60_000).toISOString().slice(11, 16);
    const end = hhmm(60);
    const { flow_id } = await mutation<{ flow_id: string }>("flows.create", {
      definition: {
        name: "Quiet",
        status: "active",
        quiet_hours: { start: hhmm(-60), end },
        caps: { email: { count: 1, period: "PT1H" } },
        steps: [{ type: "send", channel: "email", email: { html: "<p>Hi</p>" } }],
      },
    });
    const inFlow = await reach(cris.id, test, `?flow_id=${flow_id}`);
    expect(inFlow.email.reasons).toEqual(["frequency_capped"]);
    expect(inFlow.time_zone).toBe("UTC");
    expect(inFlow.quiet_hours.active).toBe(true);
    expect(inFlow.quiet_hours.until!.slice(11, 16)).toBe(end);
    expect((await reach(cris.id, test)).quiet_hours).toEqual({ active: false, until: null });
    expectError(await live.get(`/contacts/${cris.id}/reachability?flow_id=flow_nope`), {
      status: 404,
      type: "not_found",
      param: "flow_id",
    });
  });

  it("says quota_reached while a scheduled live message holds the day's limit, and not once it is canceled", async () => {
    const dan = await contact({ phone: phone() });
    await openWhatsAppWindow(baseUrl, { phoneNumberId, appSecret }, dan.phone!);
    expect((await reach(dan.id)).whatsapp.reasons).toEqual([]);
    const sendAt = new Date(Date.now() + 3600_000).toISOString();
    const scheduled = await live.post("/messages", {
      channel: "whatsapp",
      to: { contact_id: dan.id },
      whatsapp: { body: "Later" },
      send_at: sendAt,
    });
    expect(scheduled.status, scheduled.text).toBe(202);
    expect((await reach(dan.id)).whatsapp).toMatchObject({ reachable: false, reasons: ["quota_reached"] });
    // A dry run meets the limit as the send would, and counts nothing.
    const dry = { channel: "whatsapp", to: { contact_id: dan.id }, whatsapp: { body: "Now" } };
    expectError(await live.post("/messages", { ...dry, dry_run: true }), {
      status: 403,
      type: "quota_exceeded",
      code: "daily_limit_reached",
    });
    expect((await reach(dan.id)).email.reasons).toEqual(["no_address"]); // the e-mail limit is its own
    expect((await live.post(`/messages/${scheduled.body.id}/cancel`)).status).toBe(200);
    expect((await reach(dan.id)).whatsapp).toMatchObject({ reachable: true, reasons: [] });
  });

  it("answers 404 for an unknown contact, and needs contacts:read", async () => {
    expectError(await live.get("/contacts/ct_nope/reachability"), { status: 404, type: "not_found", param: "id" });
    const other = api(fixtures().other!.keys.live);
    const ana = await contact({ phone: phone() });
    expectError(await other.get(`/contacts/${ana.id}/reachability`), { status: 404, type: "not_found", param: "id" });
    expectError(await live.get(`/contacts/${ana.id}/reachability?flow=1`), { status: 400, type: "invalid_request", param: "flow" });
  });
});

describe("POST /messages with dry_run (D71)", () => {
  const summary = (res: ApiResponse) => ({ status: res.status, error: res.body?.error && { ...res.body.error, message: undefined } });

  it("answers 200 with the message it would create, rendered and without an id, and writes nothing", async () => {
    const eva = await contact({ phone: phone(), email: email("eva"), name: "Eva" });
    await openWhatsAppWindow(baseUrl, { phoneNumberId, appSecret }, eva.phone!);
    const newPhone = phone();
    const before = await settledCounts(ws.id);
    const key = { headers: { "Idempotency-Key": `dry-${randomUUID()}` } };

    const free = await test.post(
      "/messages",
      {
        channel: "whatsapp",
        to: { phone: newPhone, name: "Fay" },
        whatsapp: { body: "Hi {{name}}, code {{code}}" },
        variables: { code: 7 },
        metadata: { order: "1" },
        dry_run: true,
      },
      key,
    );
    expect(free.status, free.text).toBe(200);
    expect(free.body).toEqual({
      dry_run: true,
      status: "queued",
      channel: "whatsapp",
      direction: "outbound",
      to: newPhone,
      contact_id: null,
      metadata: { order: "1" },
      provider_message_id: null,
      error: null,
      error_code: null,
      pricing: null,
      sms: null,
      scheduled_at: null,
      canceled_at: null,
      sent_at: null,
      delivered_at: null,
      read_at: null,
      created_at: expect.any(String),
      content: { body: "Hi Fay, code 7" },
    });
    // The same key again: not a replay, since nothing was stored.
    const again = await test.post(
      "/messages",
      { channel: "whatsapp", to: { phone: newPhone }, whatsapp: { body: "Other" }, dry_run: true },
      key,
    );
    expect(again.status, again.text).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBeNull();

    const mail = await live.post("/messages", {
      channel: "email",
      to: { contact_id: eva.id },
      email: { subject: "Hi {{name}}", html: "<p>{{note}}</p>", preview_text: "For {{name}}" },
      variables: { note: "<b>" },
      dry_run: true,
    });
    expect(mail.status, mail.text).toBe(200);
    expect(mail.body).toMatchObject({ dry_run: true, channel: "email", to: eva.email, contact_id: eva.id });
    expect(mail.body.id).toBeUndefined();
    expect(mail.body.content).toEqual({ subject: "Hi Eva", html: "<p>&lt;b&gt;</p>", preview_text: "For Eva" });

    const template = await live.post("/messages", { channel: "whatsapp", to: { contact_id: eva.id }, whatsapp: HELLO, dry_run: true });
    expect(template.status, template.text).toBe(200);
    expect(template.body.content).toEqual({ body: "Hello from the shop.", template: { name: "hello", language: "en_US", parameters: {} } });
    const scheduled = new Date(Date.now() + 86_400_000).toISOString();
    const later = await live.post("/messages", {
      channel: "whatsapp",
      to: { contact_id: eva.id },
      whatsapp: { body: "Later" },
      send_at: scheduled,
      dry_run: true,
    });
    expect(later.body.scheduled_at).toBe(scheduled);

    await readOnly.get(`/contacts/${eva.id}/reachability`);
    // Nothing was written: no contact, message, usage count, event, job or idempotency record.
    expect(changedCounts(before, await rowCounts(ws.id))).toEqual({});

    // `dry_run: false` is a real send; the dry runs' Idempotency-Key was never stored, so it is not a replay.
    const real = await test.post(
      "/messages",
      { channel: "whatsapp", to: { phone: newPhone }, whatsapp: { body: "Hi" }, dry_run: false },
      key,
    );
    expect(real.status, real.text).toBe(202);
    expect(real.body.id).toMatch(/^msg_/);
    expect(real.headers.get("idempotent-replayed")).toBeNull();
    await simulated(real.body.id); // its simulated states are written before the next test counts rows
  });

  it("writes nothing at all: the counts before and after a run of dry runs are equal", async () => {
    const gus = await contact({ phone: phone(), email: email("gus") });
    const before = await settledCounts(ws.id);
    for (const body of [
      { channel: "whatsapp", to: { phone: phone(), name: "New" }, whatsapp: { body: "Hi {{name}}" } },
      { channel: "email", to: { email: email("new") }, email: { html: "<p>Hi</p>" } },
      { channel: "email", to: { contact_id: gus.id }, email: { html: "<p>Hi</p>" } },
    ]) {
      for (const key of [test, live]) {
        const res = await key.post("/messages", { ...body, dry_run: true }, { headers: { "Idempotency-Key": randomUUID() } });
        expect([200, 409], res.text).toContain(res.status); // live WhatsApp to a new number: the window is closed
      }
    }
    expect(changedCounts(before, await rowCounts(ws.id))).toEqual({});
  });

  it("refuses what the real send refuses, with the same error", async () => {
    const out = await contact({ phone: phone(), email: email("out"), opt_out_whatsapp: true });
    const suppressed = email("gone");
    await contact({ email: suppressed });
    expect((await live.post("/suppressions", { email: suppressed })).status).toBe(201);
    const windowless = await contact({ phone: phone() });
    const cases: { name: string; key: typeof live; body: Record<string, unknown>; code: string; param: string }[] = [
      {
        name: "opted out",
        key: test,
        body: { channel: "whatsapp", to: { contact_id: out.id }, whatsapp: { body: "Hi" } },
        code: "recipient_opted_out",
        param: "to",
      },
      {
        name: "suppressed",
        key: live,
        body: { channel: "email", to: { email: suppressed }, email: { html: "<p>Hi</p>" } },
        code: "recipient_suppressed",
        param: "to.email",
      },
      {
        name: "no template",
        key: live,
        body: { channel: "whatsapp", to: { contact_id: windowless.id }, whatsapp: { template: { name: "nope", language: "en_US" } } },
        code: "template_not_found",
        param: "whatsapp.template.name",
      },
      {
        name: "window closed",
        key: live,
        body: { channel: "whatsapp", to: { contact_id: windowless.id }, whatsapp: { body: "Hi" } },
        code: "whatsapp_window_closed",
        param: "whatsapp.body",
      },
      {
        name: "no address",
        key: test,
        body: { channel: "email", to: { contact_id: windowless.id }, email: { html: "<p>Hi</p>" } },
        code: "recipient_missing_address",
        param: "to.email",
      },
      {
        name: "missing variable",
        key: test,
        body: { channel: "email", to: { contact_id: out.id }, email: { html: "<p>{{nope}}</p>" } },
        code: "missing_variable",
        param: "variables.nope",
      },
      {
        name: "bad input",
        key: test,
        body: { channel: "fax", to: { contact_id: out.id }, email: { html: "x" } },
        code: "parameter_invalid",
        param: "channel",
      },
      {
        name: "bad phone",
        key: test,
        body: { channel: "whatsapp", to: { phone: "12" }, whatsapp: { body: "Hi" } },
        code: "invalid_phone",
        param: "to.phone",
      },
      {
        name: "unknown contact",
        key: test,
        body: { channel: "whatsapp", to: { contact_id: "ct_nope" }, whatsapp: { body: "Hi" } },
        code: "resource_missing",
        param: "to.contact_id",
      },
    ];
    for (const c of cases) {
      const dry = await c.key.post("/messages", { ...c.body, dry_run: true });
      const real = await c.key.post("/messages", c.body);
      expect(dry.body?.error, c.name).toMatchObject({ code: c.code, param: c.param });
      expect(summary(dry), c.name).toEqual(summary(real));
    }
    expectError(await test.post("/messages", { channel: "email", to: { contact_id: out.id }, email: { html: "x" }, dry_run: "yes" }), {
      status: 400,
      type: "invalid_request",
      param: "dry_run",
    });
    // A batch item cannot be a dry run: refused, never sent.
    const batch = await test.post("/messages/batch", {
      messages: [{ channel: "email", to: { contact_id: out.id }, email: { html: "x" }, dry_run: true }],
    });
    expect(batch.status, batch.text).toBe(200);
    expect(batch.body.data[0].error).toMatchObject({ code: "unknown_parameter", param: "messages.0.dry_run" });
  });
});
