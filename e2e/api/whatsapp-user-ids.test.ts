import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api, expectError, fixtures } from "../support/client.ts";
import { dashboardMutation, dashboardQuery } from "../support/dashboard.ts";
import { contactEvents } from "../support/events.ts";
import {
  inboundByUserIdWebhook,
  postWebhook,
  startFakeWhatsApp,
  statusWebhook,
  userIdChangedWebhook,
  type FakeWhatsApp,
} from "../support/fake-whatsapp.ts";
import { queryDatabase } from "../support/database.ts";
import { poller } from "../support/until.ts";

// D88 over real HTTP: WhatsApp user ids and usernames. Signed webhooks in Meta's 2026 JSON
// (senders and recipients by user id, the phone withheld, the parent id under each of its
// three spellings) reach /api/providers/whatsapp; sends go to the local Cloud API, by `to`
// when the contact has a phone and by `recipient` when it has only a user id.
const ws = fixtures().whatsappIds!;
const live = api(ws.keys.live);
const { baseUrl, env } = inject("api");
const phoneNumberId = String(100_000_000 + Math.floor(Math.random() * 899_999_999));
const appSecret = `secret-${randomUUID()}`;
const callback = `${baseUrl}/api/providers/whatsapp`;
const until = poller(15_000);
let fake: FakeWhatsApp;

let n = 0;
/** A fresh business-scoped user id, `US.` and 20 digits like Meta's example. */
const userId = () => `US.${String(Date.now() * 1000 + n++ * 7 + Math.floor(Math.random() * 1000)).padStart(20, "1")}`;
const phone = () => `+55119${String(40_000_000 + ((Date.now() + n++ * 7919 + Math.floor(Math.random() * 1e6)) % 59_999_999)).slice(-8)}`;

const post = async (payload: unknown, secret: string | null = appSecret) => (await postWebhook(callback, payload, secret)).status;
const byUserId = (id: string) => live.get(`/contacts?whatsapp_user_id=${encodeURIComponent(id)}`);
const messageOf = (id: string, status: string) =>
  until(
    async () => (await live.get(`/messages/${id}`)).body,
    (m) => m.status === status,
  );

beforeAll(async () => {
  fake = await startFakeWhatsApp({ latencyMs: 5 });
  await dashboardMutation(ws.id, "channels.connect", {
    type: "whatsapp",
    phone_number_id: phoneNumberId,
    access_token: "token-ids",
    app_secret: appSecret,
    verify_token: "verify-ids",
    api_base_url: fake.url,
  });
});

afterAll(async () => {
  await fake?.close();
});

describe("the Contact's WhatsApp user id and username", () => {
  it("is set by POST /contacts, found by GET /contacts?whatsapp_user_id=, listed, and unique in the workspace", async () => {
    const id = userId();
    const created = await live.post("/contacts", { whatsapp_user_id: id, whatsapp_username: "@ana.ids", name: "Ana" });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ phone: null, email: null, whatsapp_user_id: id, whatsapp_username: "@ana.ids", name: "Ana" });
    expect((await byUserId(id)).body).toEqual(created.body);
    const listed = await live.get(`/contacts?whatsapp_user_id=${encodeURIComponent(id)}&limit=10`);
    expect(listed.body).toEqual([created.body]);
    // Matched by the user id: the same contact gains a phone.
    const p = phone();
    const again = await live.post("/contacts", { whatsapp_user_id: id, phone: p });
    expect(again.body).toMatchObject({ id: created.body.id, phone: p, whatsapp_user_id: id });
    // Matched by the user id first: a phone that another contact has is that contact's.
    const other = await live.post("/contacts", { phone: phone() });
    expectError(await live.post("/contacts", { phone: other.body.phone, whatsapp_user_id: id }), {
      status: 409,
      type: "conflict",
      code: "phone_taken",
      param: "phone",
    });
    // Another contact may not take the user id (the dashboard edits a contact by its id).
    await expect(dashboardMutation(ws.id, "contacts.update", { id: other.body.id, whatsapp_user_id: id })).rejects.toThrow(
      /^contacts\.update: 409 .*already has this WhatsApp user id/,
    );
    expect((await live.get(`/contacts/${other.body.id}`)).body.whatsapp_user_id).toBeNull();
    expectError(await byUserId(userId()), { status: 404, type: "not_found", param: "whatsapp_user_id" });
  });

  it("refuses a malformed user id with its param, writing nothing", async () => {
    for (const bad of ["13491208655302741918", "USA.123", "US.", "US.12-34", `US.${"1".repeat(129)}`]) {
      expectError(await live.post("/contacts", { whatsapp_user_id: bad, name: "Bad" }), {
        status: 400,
        type: "invalid_request",
        code: "invalid_whatsapp_user_id",
        param: "whatsapp_user_id",
      });
    }
    expectError(await byUserId("nope"), {
      status: 400,
      type: "invalid_request",
      code: "invalid_whatsapp_user_id",
      param: "whatsapp_user_id",
    });
    expectError(await live.post("/messages", { channel: "whatsapp", to: { whatsapp_user_id: "x.1" }, whatsapp: { body: "Hi" } }), {
      status: 400,
      type: "invalid_request",
      code: "invalid_whatsapp_user_id",
      param: "to.whatsapp_user_id",
    });
    // Still exactly one way of addressing per `to`.
    const two = await live.post("/messages", {
      channel: "whatsapp",
      to: { phone: phone(), whatsapp_user_id: userId() },
      whatsapp: { body: "Hi" },
    });
    expectError(two, { status: 400, type: "invalid_request", param: "to" });
  });
});

describe("inbound messages and status reports without a phone", () => {
  it("an inbound message by user id alone creates a contact without a phone, with its username; the parent id is kept", async () => {
    const id = userId();
    const parent = userId();
    const payload = inboundByUserIdWebhook(phoneNumberId, {
      userId: id,
      name: "Sheena Nelson",
      username: "@realsheenanelson",
      parent: { key: "parent_user_id", id: parent },
    });
    expect(await post(payload, "wrong-secret")).toBe(401);
    expect((await byUserId(id)).status).toBe(404);
    expect(await post(payload)).toBe(200);
    expect(await post(payload)).toBe(200); // redelivered: recorded once
    const contact = (await byUserId(id)).body;
    expect(contact).toMatchObject({
      phone: null,
      whatsapp_user_id: id,
      whatsapp_username: "@realsheenanelson",
      name: "Sheena Nelson",
      whatsapp_window_expires_at: expect.any(String),
    });
    // Its window is open: a free-form message may go to its user id.
    const reach = (await live.get(`/contacts/${contact.id}/reachability`)).body;
    expect(reach.whatsapp).toMatchObject({ reachable: true, window: { open: true }, template_required: false });
    const inbound = (await live.get(`/messages?direction=inbound&contact_id=${contact.id}`)).body;
    expect(inbound).toHaveLength(1);
    const detail = await dashboardQuery<{ content: Record<string, unknown> }>(ws.id, "messages.detail", { id: inbound[0].id });
    expect(detail.content).toMatchObject({ text: "Hi", from: null, from_user_id: id, parent_user_id: parent });
    // The parent id is never matched on: its own contact does not exist.
    expect((await byUserId(parent)).status).toBe(404);
  });

  it("takes the parent id under each of its three spellings, and never matches a contact by it", async () => {
    const parentContact = (await live.post("/contacts", { whatsapp_user_id: userId(), name: "Parent" })).body;
    for (const key of ["parent_user_id", "parent_recipient_user_id", "recipient_parent_user_id"] as const) {
      const id = userId();
      expect(await post(inboundByUserIdWebhook(phoneNumberId, { userId: id, parent: { key, id: parentContact.whatsapp_user_id } }))).toBe(
        200,
      );
      const contact = (await byUserId(id)).body;
      expect(contact.id).not.toBe(parentContact.id);
      const [message] = (await live.get(`/messages?direction=inbound&contact_id=${contact.id}`)).body;
      const detail = await dashboardQuery<{ content: Record<string, unknown> }>(ws.id, "messages.detail", { id: message.id });
      expect(detail.content.parent_user_id).toBe(parentContact.whatsapp_user_id);
    }
    expect((await live.get(`/messages?direction=inbound&contact_id=${parentContact.id}`)).body).toEqual([]);
  });

  it("matches by user id before the phone, and a contact matched by phone learns its user id and username", async () => {
    // One contact holds the user id, another the phone: the user id wins.
    const id = userId();
    const p = phone();
    const holder = (await live.post("/contacts", { whatsapp_user_id: id })).body;
    const byPhone = (await live.post("/contacts", { phone: p })).body;
    expect(await post(inboundByUserIdWebhook(phoneNumberId, { userId: id, phone: p.slice(1) }))).toBe(200);
    expect((await live.get(`/messages?direction=inbound&contact_id=${holder.id}`)).body).toHaveLength(1);
    expect((await live.get(`/messages?direction=inbound&contact_id=${byPhone.id}`)).body).toHaveLength(0);
    // A contact known by phone only learns the user id and username its message carries.
    const other = phone();
    const known = (await live.post("/contacts", { phone: other })).body;
    const newId = userId();
    expect(await post(inboundByUserIdWebhook(phoneNumberId, { userId: newId, phone: other.slice(1), username: "@known" }))).toBe(200);
    expect((await live.get(`/contacts/${known.id}`)).body).toMatchObject({
      phone: other,
      whatsapp_user_id: newId,
      whatsapp_username: "@known",
    });
  });

  it("a status report carrying the recipient's user id and no phone is applied to its message", async () => {
    const id = userId();
    await post(inboundByUserIdWebhook(phoneNumberId, { userId: id }));
    const contact = (await byUserId(id)).body;
    const sent = await live.post("/messages", { channel: "whatsapp", to: { contact_id: contact.id }, whatsapp: { body: "Thanks!" } });
    expect(sent.status).toBe(202);
    const message = await messageOf(sent.body.id, "sent");
    const report = { wamid: message.provider_message_id, recipientUserId: id, phoneWithheld: true };
    const delivered = statusWebhook(phoneNumberId, [{ ...report, status: "delivered" }]);
    expect(JSON.stringify(delivered)).not.toContain("recipient_id");
    expect(await post(delivered)).toBe(200);
    expect((await messageOf(sent.body.id, "delivered")).status).toBe("delivered");
    const read = statusWebhook(phoneNumberId, [{ ...report, status: "read", parent: { key: "recipient_parent_user_id", id: userId() } }]);
    expect(await post(read)).toBe(200);
    expect((await messageOf(sent.body.id, "read")).status).toBe("read");
  });
});

describe("sends by user id", () => {
  it("posts `recipient` to a contact without a phone and `to` to one with a phone; with neither, 400 to.phone", async () => {
    const id = userId();
    await post(inboundByUserIdWebhook(phoneNumberId, { userId: id }));
    const byId = await live.post("/messages", { channel: "whatsapp", to: { whatsapp_user_id: id }, whatsapp: { body: "By id" } });
    expect(byId.status).toBe(202);
    expect(byId.body.to).toBe(id);
    await messageOf(byId.body.id, "sent");
    const call = fake.requests.find((r) => r.body?.biz_opaque_callback_data === byId.body.id)!;
    expect(call.body).toMatchObject({ messaging_product: "whatsapp", recipient_type: "individual", recipient: id, type: "text" });
    expect(call.body.to).toBeUndefined();

    // Once the contact has a phone, the phone is used.
    const p = phone();
    await post(inboundByUserIdWebhook(phoneNumberId, { userId: id, phone: p.slice(1) }));
    const byPhone = await live.post("/messages", { channel: "whatsapp", to: { whatsapp_user_id: id }, whatsapp: { body: "By phone" } });
    await messageOf(byPhone.body.id, "sent");
    const second = fake.requests.find((r) => r.body?.biz_opaque_callback_data === byPhone.body.id)!;
    expect(second.body).toMatchObject({ to: p.slice(1) });
    expect(second.body.recipient).toBeUndefined();

    const mailOnly = (await live.post("/contacts", { email: `ids-${randomUUID()}@example.com` })).body;
    expectError(await live.post("/messages", { channel: "whatsapp", to: { contact_id: mailOnly.id }, whatsapp: { body: "Hi" } }), {
      status: 400,
      type: "invalid_request",
      code: "recipient_missing_address",
      param: "to.phone",
    });
  });

  it("a journey's send step reaches a contact known only by user id through `recipient`", async () => {
    const id = userId();
    await post(inboundByUserIdWebhook(phoneNumberId, { userId: id }));
    const { flow_id } = await dashboardMutation<{ flow_id: string }>(ws.id, "flows.create", {
      definition: {
        name: `Ids ${randomUUID()}`,
        status: "active",
        steps: [{ type: "send", channel: "whatsapp", whatsapp: { body: "Welcome" } }],
      },
    });
    const run = await live.post(`/flows/${flow_id}/enroll`, { to: { whatsapp_user_id: id } });
    expect(run.status).toBe(201);
    type Run = { status: string; history: { kind: string; detail: Record<string, unknown> }[] };
    const done = await until(
      () => dashboardQuery<Run>(ws.id, "flows.run", { run_id: run.body.id }),
      (r) => r.status !== "active",
    );
    const step = done.history.find((h) => h.detail.type === "send")!;
    expect(step.kind).toBe("step");
    const messageId = step.detail.message_id as string;
    await messageOf(messageId, "sent");
    expect(fake.requests.find((r) => r.body?.biz_opaque_callback_data === messageId)!.body).toMatchObject({ recipient: id });
    // Unenrolling an unknown user id names its field.
    expectError(await live.post(`/flows/${flow_id}/unenroll`, { to: { whatsapp_user_id: userId() } }), {
      status: 404,
      type: "not_found",
      param: "to.whatsapp_user_id",
    });
  });
});

describe("changed user ids and error 131062", () => {
  it("a system webhook user_changed_user_id moves the contact to its new id, with contato.atualizado", async () => {
    const oldId = userId();
    const newId = userId();
    await post(inboundByUserIdWebhook(phoneNumberId, { userId: oldId }));
    const contact = (await byUserId(oldId)).body;
    expect(await post(userIdChangedWebhook(phoneNumberId, oldId, newId))).toBe(200);
    expect((await byUserId(newId)).body).toMatchObject({ id: contact.id, whatsapp_user_id: newId });
    expect((await byUserId(oldId)).status).toBe(404);
    // The system message is not a message from the contact.
    expect((await live.get(`/messages?direction=inbound&contact_id=${contact.id}`)).body).toHaveLength(1);
    const events = await until(
      () => contactEvents(ws.id, contact.id),
      (e) => e.some((x) => x.event === "contato.atualizado"),
    );
    expect(events.find((e) => e.event === "contato.atualizado")).toMatchObject({ data: { id: contact.id, whatsapp_user_id: newId } });
  });

  it("fails a message Meta refuses with 131062 as whatsapp_131062, answered or reported", async () => {
    const id = userId();
    await post(inboundByUserIdWebhook(phoneNumberId, { userId: id }));
    fake.setMode(
      { kind: "graph_error", code: 131062, message: "(#131062) Business-scoped User ID (BSUID) recipients not supported for this message" },
      { times: 1 },
    );
    const answered = await live.post("/messages", { channel: "whatsapp", to: { whatsapp_user_id: id }, whatsapp: { body: "A" } });
    const failed = await messageOf(answered.body.id, "failed");
    expect(failed).toMatchObject({ status: "failed", error_code: "whatsapp_131062" });

    const reported = await live.post("/messages", { channel: "whatsapp", to: { whatsapp_user_id: id }, whatsapp: { body: "B" } });
    const sent = await messageOf(reported.body.id, "sent");
    const errors = [{ code: 131062, title: "Business-scoped User ID (BSUID) recipients not supported for this message" }];
    const report = statusWebhook(phoneNumberId, [
      { wamid: sent.provider_message_id, status: "failed", recipientUserId: id, phoneWithheld: true, errors },
    ]);
    expect(await post(report)).toBe(200);
    expect(await messageOf(reported.body.id, "failed")).toMatchObject({ error_code: "whatsapp_131062" });
  });
});

describe("erasure", () => {
  it("leaves no trace of the user id or username in the contact's messages, their history or its events", async () => {
    const id = userId();
    const username = `@erase${n++}`;
    await post(inboundByUserIdWebhook(phoneNumberId, { userId: id, username }));
    const contact = (await byUserId(id)).body;
    const sent = await live.post("/messages", { channel: "whatsapp", to: { contact_id: contact.id }, whatsapp: { body: "Bye" } });
    await messageOf(sent.body.id, "sent");
    const traces = async () => {
      const patterns = [`%${id}%`, `%${username}%`];
      const rows = await queryDatabase(
        env,
        `SELECT (SELECT count(*) FROM messages WHERE contact_id = $1 AND (content::text ILIKE ANY($2) OR "to" ILIKE ANY($2)))
              + (SELECT count(*) FROM events WHERE contact_id = $1 AND data::text ILIKE ANY($2))
              + (SELECT count(*) FROM message_history h JOIN messages m ON m.workspace_id = h.workspace_id AND m.id = h.message_id
                 WHERE m.contact_id = $1 AND h.detail::text ILIKE ANY($2)) AS n`,
        [contact.id, patterns],
      );
      return Number(rows[0]!.n);
    };
    expect(await traces()).toBeGreaterThan(0);
    expect((await live.request("DELETE", `/contacts/${contact.id}`)).status).toBe(200);
    expect(await traces()).toBe(0);
  });
});
