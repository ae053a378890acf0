import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { api, expectError, fixtures } from "../support/client.ts";
import { contactEvents } from "../support/events.ts";

// Contacts: spec "Create or update contact", "Find contact", "Get contact", D1, D2, D13, D14.
const fx = fixtures();
const ws = fx.contacts!;
const client = api(ws.keys.test);

let n = 0;
/** A fresh valid Brazilian mobile number per call, in national notation (default country BR). */
function phone(): { national: string; e164: string } {
  const digits = String(10_000_000 + ((Date.now() + n++ * 7919 + Math.floor(Math.random() * 1e6)) % 89_999_999)).padStart(8, "0");
  return { national: `(11) 9${digits.slice(0, 4)}-${digits.slice(4)}`, e164: `+55119${digits}` };
}
const email = () => `user.${randomUUID().slice(0, 8)}@Example.COM`;

let vip: string;
let gold: string;
const plan = `plan_${randomUUID().slice(0, 6)}`;
const visits = `visits_${randomUUID().slice(0, 6)}`;
const born = `born_${randomUUID().slice(0, 6)}`;
const active = `active_${randomUUID().slice(0, 6)}`;

beforeAll(async () => {
  vip = (await client.post("/tags", { name: `VIP ${randomUUID()}` })).body.id;
  gold = (await client.post("/tags", { name: `Gold ${randomUUID()}` })).body.id;
  for (const [key, type] of [
    [plan, "text"],
    [visits, "number"],
    [born, "date"],
    [active, "boolean"],
  ]) {
    expect((await client.post("/custom-fields", { name: key, key, type })).status).toBe(201);
  }
});

describe("POST /contacts: create", () => {
  it("creates a contact from a national number with the default country (D1): 200, E.164", async () => {
    const p = phone();
    const e = email();
    const res = await client.post("/contacts", { phone: p.national, email: `  ${e} `, name: "Ana" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^ct_/),
      phone: p.e164,
      email: e.replace("Example.COM", "example.com"),
      whatsapp_user_id: null,
      whatsapp_username: null,
      name: "Ana",
      tags: [],
      fields: {},
      opt_out_whatsapp: false,
      opt_out_email: false,
      opt_out_sms: false,
      whatsapp_marketing_opt_out: false,
      whatsapp_window_expires_at: null,
      time_zone: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
  });

  it("creates a contact from an e-mail alone", async () => {
    const res = await client.post("/contacts", { email: email() });
    expect(res.status).toBe(200);
    expect(res.body.phone).toBeNull();
  });

  it.each([
    { name: "neither phone nor e-mail", body: { name: "x" }, param: "phone" },
    { name: "an empty body", body: {}, param: "phone" },
    { name: "letters in the phone", body: { phone: "+55 11 9abc" }, param: "phone", code: "invalid_phone" },
    { name: "an impossible number", body: { phone: "+55 11 123" }, param: "phone", code: "invalid_phone" },
    { name: "an invalid e-mail", body: { email: "not-an-email" }, param: "email", code: "invalid_email" },
    { name: "two e-mails", body: { email: "a@b.com, c@d.com" }, param: "email", code: "invalid_email" },
    { name: "a phone of the wrong type", body: { phone: 5511987654321 }, param: "phone" },
    { name: "an opt-out that is not boolean", body: { email: "ok@example.com", opt_out_email: "yes" }, param: "opt_out_email" },
    { name: "an unknown tag", body: { email: "ok@example.com", tags: ["tag_nope"] }, param: "tags.0", code: "unknown_tag" },
    { name: "an unknown field", body: { email: "ok@example.com", fields: { nope: 1 } }, param: "fields.nope", code: "unknown_field" },
  ])("refuses $name with 400 and param", async ({ body, param, code }) => {
    expectError(await client.post("/contacts", body), { status: 400, type: "invalid_request", param, code });
  });

  it("refuses a number without country code when the workspace has no default country (D1)", async () => {
    const res = await api(fx.nocountry!.keys.test).post("/contacts", { phone: "11 98765-4321" });
    expectError(res, { status: 400, type: "invalid_request", code: "invalid_phone", param: "phone" });
    expect(res.body.error.message).toMatch(/country code/);
  });

  it("accepts the fictional test numbers of D35 with any key", async () => {
    const res = await api(ws.keys.live).post("/contacts", { phone: "+1 555 010 0002" });
    expect(res.body.phone).toBe("+15550100002");
  });

  it("needs contacts:write", async () => {
    expectError(await api(ws.keys.readOnly).post("/contacts", { email: email() }), {
      status: 403,
      type: "forbidden",
      code: "missing_scope",
    });
  });
});

describe("POST /contacts: update", () => {
  it("matches by phone in any notation and keeps the fields left out", async () => {
    const p = phone();
    const e = email();
    const created = (await client.post("/contacts", { phone: p.e164, email: e, name: "Bia", tags: [vip], fields: { [plan]: "gold" } }))
      .body;
    const updated = await client.post("/contacts", { phone: p.national, name: "Beatriz" });
    expect(updated.body).toMatchObject({ id: created.id, name: "Beatriz", email: created.email, tags: [vip], fields: { [plan]: "gold" } });
    expect(updated.body.created_at).toBe(created.created_at);
    expect(updated.body.updated_at > created.updated_at).toBe(true);
  });

  it("matches by e-mail when no phone is given, and adds a phone", async () => {
    const e = email();
    const created = (await client.post("/contacts", { email: e })).body;
    const p = phone();
    const updated = await client.post("/contacts", {
      email: e.toLowerCase().replace(/@.*/, "@EXAMPLE.com"),
      phone: undefined,
      opt_out_email: true,
    });
    expect(updated.body).toMatchObject({ id: created.id, opt_out_email: true });
    const withPhone = await client.post("/contacts", { phone: p.e164, email: e });
    // A phone that no contact has and an e-mail of another contact: the new contact would take it.
    expectError(withPhone, { status: 409, type: "conflict", code: "email_taken", param: "email" });
  });

  it("replaces tags and merges fields key by key; null removes a key (D14)", async () => {
    const p = phone();
    const id = (await client.post("/contacts", { phone: p.e164, tags: [vip], fields: { [plan]: "gold", [visits]: 3 } })).body.id;
    const res = await client.post("/contacts", {
      phone: p.e164,
      tags: [gold],
      fields: { [visits]: null, [born]: "1990-05-17", [active]: true },
    });
    expect(res.body).toMatchObject({ id, tags: [gold], fields: { [plan]: "gold", [born]: "1990-05-17", [active]: true } });
    expect(res.body.fields).not.toHaveProperty(visits);
    expect((await client.post("/contacts", { phone: p.e164, tags: [] })).body.tags).toEqual([]);
  });

  it.each([
    { name: "a number field given text", field: () => visits, value: "3" },
    { name: "a date field given an impossible date", field: () => born, value: "2023-02-30" },
    { name: "a boolean field given a string", field: () => active, value: "true" },
    { name: "a text field given a number", field: () => plan, value: 7 },
  ])("refuses $name, and writes nothing", async ({ field, value }) => {
    const p = phone();
    const before = (await client.post("/contacts", { phone: p.e164, name: "Kept", tags: [vip], fields: { [plan]: "silver" } })).body;
    const res = await client.post("/contacts", { phone: p.e164, name: "Changed", tags: [gold], fields: { [visits]: 1, [field()]: value } });
    expectError(res, { status: 400, type: "invalid_request", code: "invalid_field_value", param: `fields.${field()}` });
    expect((await client.get(`/contacts/${before.id}`)).body).toEqual(before);
  });

  it("refuses an unknown tag among known ones with its index, and writes nothing", async () => {
    const p = phone();
    const before = (await client.post("/contacts", { phone: p.e164, tags: [vip] })).body;
    expectError(await client.post("/contacts", { phone: p.e164, name: "x", tags: [gold, "tag_missing"] }), {
      status: 400,
      type: "invalid_request",
      param: "tags.1",
    });
    expect((await client.get(`/contacts/${before.id}`)).body).toEqual(before);
  });

  it("refuses to give a contact the e-mail of another (D14): 409, nothing written", async () => {
    const taken = email();
    await client.post("/contacts", { email: taken });
    const p = phone();
    const before = (await client.post("/contacts", { phone: p.e164, name: "Own" })).body;
    expectError(await client.post("/contacts", { phone: p.e164, email: taken, name: "Thief" }), {
      status: 409,
      type: "conflict",
      code: "email_taken",
      param: "email",
    });
    expect((await client.get(`/contacts/${before.id}`)).body).toEqual(before);
  });

  it("creates one contact under concurrent upserts of the same new phone", async () => {
    const p = phone();
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => client.post("/contacts", { phone: i % 2 ? p.national : p.e164, name: "Same" })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
    const events = await contactEvents(ws.id, results[0]!.body.id);
    expect(events.map((e) => e.event)).toEqual(["contato.criado"]);
  });
});

describe("contact events (D14, D31)", () => {
  it("records contato.criado on creation and contato.atualizado only when a stored value changed", async () => {
    const p = phone();
    const created = (await client.post("/contacts", { phone: p.e164, name: "Eva" })).body;
    await client.post("/contacts", { phone: p.e164, name: "Eva" }); // same values: no event
    await client.post("/contacts", { phone: p.national }); // nothing given to change: no event
    const updated = (await client.post("/contacts", { phone: p.e164, name: "Eva Maria", tags: [vip] })).body;
    await api(ws.keys.live).post("/contacts", { phone: p.e164, opt_out_whatsapp: true });
    const events = await contactEvents(ws.id, created.id);
    expect(events.map((e) => [e.event, e.mode])).toEqual([
      ["contato.criado", "test"],
      ["contato.atualizado", "test"],
      ["contato.atualizado", "live"],
    ]);
    expect(events[0]!.id).toMatch(/^evt_/);
    expect(events[0]!.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(events[0]!.data).toEqual(created);
    expect(events[1]!.data).toEqual(updated);
    expect(events[2]!.data.opt_out_whatsapp).toBe(true);
  });

  it("writes no event for a refused upsert", async () => {
    const p = phone();
    const created = (await client.post("/contacts", { phone: p.e164 })).body;
    await client.post("/contacts", { phone: p.e164, name: "x", fields: { nope: 1 } });
    expect((await contactEvents(ws.id, created.id)).map((e) => e.event)).toEqual(["contato.criado"]);
  });
});

describe("GET /contacts and GET /contacts/{id} (D13)", () => {
  it("finds by phone in any notation, by e-mail, and prefers phone when both are given", async () => {
    const p = phone();
    const e = email();
    const byPhone = (await client.post("/contacts", { phone: p.e164 })).body;
    const byEmail = (await client.post("/contacts", { email: e })).body;
    expect((await client.get(`/contacts?phone=${encodeURIComponent(p.national)}`)).body.id).toBe(byPhone.id);
    expect((await client.get(`/contacts?email=${encodeURIComponent(e)}`)).body.id).toBe(byEmail.id);
    expect((await client.get(`/contacts?phone=${encodeURIComponent(p.e164)}&email=${encodeURIComponent(e)}`)).body.id).toBe(byPhone.id);
    expect((await api(ws.keys.readOnly).get(`/contacts/${byPhone.id}`)).body).toEqual(byPhone);
  });

  // Neither phone nor e-mail: the list of D99 (e2e/api/flows-api.test.ts), no longer a 400.
  it("GET /contacts without phone or e-mail lists the workspace's contacts", async () => {
    const res = await client.get("/contacts?limit=1000");
    expect(res.status, res.text).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
  });

  it.each([
    { query: "?phone=abc", status: 400, type: "invalid_request", param: "phone" },
    { query: "?email=nope", status: 400, type: "invalid_request", param: "email" },
    { query: "?phone=%2B5511912345678", status: 404, type: "not_found", param: "phone" },
    { query: "?email=nobody%40example.com", status: 404, type: "not_found", param: "email" },
  ])("GET /contacts$query: $status", async ({ query, status, type, param }) => {
    expectError(await client.get(`/contacts${query}`), { status, type, param });
  });

  it("answers 404 for an unknown id and for another workspace's contact", async () => {
    expectError(await client.get("/contacts/ct_unknown"), { status: 404, type: "not_found" });
    const mine = (await client.post("/contacts", { email: email() })).body;
    expectError(await api(fx.other!.keys.test).get(`/contacts/${mine.id}`), { status: 404, type: "not_found" });
  });

  it("needs contacts:read", async () => {
    expectError(await api(fx.main!.keys.readOnly).get("/contacts?phone=%2B5511912345678"), {
      status: 403,
      type: "forbidden",
      code: "missing_scope",
    });
  });
});
