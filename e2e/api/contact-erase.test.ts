import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api, expectError, fixtures } from "../support/client.ts";
import { dashboardMutation } from "../support/dashboard.ts";
import { queryDatabase } from "../support/database.ts";
import { until } from "../support/until.ts";
import { startReceiver, type Receiver } from "../support/webhook-receiver.ts";

// D78 over real HTTP on both engines: DELETE /contacts/{id} erases a contact, proven complete by
// searching every text and JSON column of every table for its data afterwards; `add_tags` and
// `remove_tags` on POST /contacts; `to.name` names a matched contact that has none.
const { env } = inject("api");
const ws = fixtures().integrators!;
const test = api(ws.keys.test);
const mutation = <T>(path: string, input: unknown) => dashboardMutation<T>(ws.id, path, input);
const query = (sql: string, params: unknown[] = []) => queryDatabase(env, sql, params);
const del = (path: string) => test.request("DELETE", path);

let seq = 0;
const unique = () => `${Date.now().toString(36)}${(seq++).toString(36)}${randomUUID().slice(0, 4)}`;
const phone = () => `+55119${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;

/** Every (table, column) of the public schema whose values can hold text: text, varchar, json, jsonb and arrays. */
async function textColumns(): Promise<{ table: string; column: string }[]> {
  const rows = await query(
    `SELECT table_name AS table, column_name AS column FROM information_schema.columns
     WHERE table_schema = 'public' AND data_type IN ('text', 'character varying', 'character', 'json', 'jsonb', 'ARRAY')
     ORDER BY table_name, column_name`,
  );
  return rows as { table: string; column: string }[];
}

/**
 * Where any of `needles` (any case) is found: `table.column` with a count. One statement per
 * table, counting each column apart: on Citus every statement reaches every shard, and a
 * statement per column (about 200) took most of the test's minute there.
 */
async function search(needles: string[]): Promise<string[]> {
  const patterns = needles.map((n) => `%${n.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  const byTable = new Map<string, { column: string }[]>();
  for (const c of await textColumns()) byTable.set(c.table, [...(byTable.get(c.table) ?? []), c]);
  const found: string[] = [];
  for (const [table, columns] of byTable) {
    const counts = columns.map(({ column }, i) => `count(*) FILTER (WHERE "${column}"::text ILIKE ANY($1::text[]))::int AS c${String(i)}`);
    const [row] = await query(`SELECT ${counts.join(", ")} FROM "${table}"`, [patterns]);
    columns.forEach(({ column }, i) => {
      const n = Number(row![`c${String(i)}`]);
      if (n > 0) found.push(`${table}.${column} (${String(n)})`);
    });
  }
  return found;
}

describe("DELETE /contacts/{id} (D78)", () => {
  let receiver: Receiver;
  let endpointId = "";

  beforeAll(async () => {
    receiver = await startReceiver();
    // The receiver answers with the body it got, so the attempts' response excerpts hold contact data too.
    receiver.respond((r) => ({ status: 200, body: r.raw.slice(0, 400) }));
    endpointId = (await mutation<{ id: string }>("webhooks.create", { url: receiver.url })).id;
  });
  afterAll(async () => {
    await mutation("webhooks.delete", { endpoint_id: endpointId });
    await receiver.close();
  });

  it("leaves no trace of the contact's phone, e-mail, name, fields or message texts in any column of any table", async () => {
    const id = unique();
    const secret = {
      phone: phone(),
      email: `erase.${id}@Example.com`,
      name: `Zelda Erasable ${id}`,
      field: `Rua Secreta ${id}`,
      whatsapp: `WhatsApp words ${id}`,
      subject: `Subject words ${id}`,
      html: `Mail body words ${id}`,
      later: `Scheduled words ${id}`,
      property: `Property words ${id}`,
    };
    const key = `addr_${id}`.slice(0, 40).replace(/[^a-z0-9_]/g, "_");
    expect((await test.post("/custom-fields", { name: key, key, type: "text" })).status).toBe(201);
    const tag = (await test.post("/tags", { name: `Erase ${id}` })).body.id as string;
    const contact = await test.post(
      "/contacts",
      { phone: secret.phone, email: secret.email, name: secret.name, fields: { [key]: secret.field }, tags: [tag] },
      { headers: { "Idempotency-Key": `erase-contact-${id}` } },
    );
    expect(contact.status).toBe(200);
    const contactId = contact.body.id as string;

    const whatsapp = await test.post(
      "/messages",
      { channel: "whatsapp", to: { contact_id: contactId }, whatsapp: { body: `${secret.whatsapp} {{name}}` } },
      { headers: { "Idempotency-Key": `erase-wa-${id}` } },
    );
    expect(whatsapp.status).toBe(202);
    const email = await test.post("/messages", {
      channel: "email",
      to: { email: secret.email },
      email: { subject: secret.subject, html: `<p>${secret.html}</p>` },
    });
    expect(email.status).toBe(202);
    const scheduled = await test.post("/messages", {
      channel: "whatsapp",
      to: { phone: secret.phone },
      whatsapp: { body: secret.later },
      send_at: new Date(Date.now() + 3_600_000).toISOString(),
    });
    expect(scheduled.status).toBe(202);
    expect(
      (await test.post("/events", { name: `erase_${id}`, to: { contact_id: contactId }, properties: { note: secret.property } })).status,
    ).toBe(202);
    const { flow_id: flowId } = await mutation<{ flow_id: string }>("flows.create", {
      definition: { name: `Erase wait ${id}`, status: "active", steps: [{ type: "wait", duration: "PT1H" }] },
    });
    const enrolled = await test.post(`/flows/${flowId}/enroll`, { to: { contact_id: contactId } });
    expect(enrolled.status).toBe(201);
    const runId = enrolled.body.id as string;

    // Wait for the test clock to walk both messages to `read`, and for the webhooks to be answered.
    for (const m of [whatsapp, email]) {
      await until(
        async () => (await test.get(`/messages/${m.body.id as string}`)).body.status,
        (s) => s === "read",
        30_000,
      );
    }
    await receiver.waitFor((r) => r.body?.data?.id === email.body.id && r.body?.event === "mensagem.lida", 1, 30_000);
    await receiver.waitFor((r) => r.body?.data?.id === contactId && r.body?.event === "contato.criado", 1, 30_000);
    const needles = [secret.phone, secret.phone.slice(1), secret.email, secret.name, ...Object.values(secret).slice(3)];
    expect(await search(needles), "the data is there before the erase").not.toEqual([]);

    const erased = await del(`/contacts/${contactId}`);
    expect(erased.status).toBe(200);
    expect(erased.body).toEqual({ id: contactId, erased: true });

    expectError(await test.get(`/contacts/${contactId}`), { status: 404, type: "not_found", code: "resource_missing" });
    expectError(await del(`/contacts/${contactId}`), { status: 404, type: "not_found", param: "id" });
    // The run stopped with its reason; the scheduled message was canceled; messages stay, erased.
    const run = await test.get(`/runs/${runId}`);
    expect(run.body).toMatchObject({ status: "stopped" });
    expect(JSON.stringify(run.body.history)).toContain("contact_erased");
    expect((await test.get(`/messages/${scheduled.body.id as string}`)).body).toMatchObject({ status: "canceled", to: "[erased]" });
    expect((await test.get(`/messages/${whatsapp.body.id as string}`)).body).toMatchObject({
      status: "read",
      to: "[erased]",
      contact_id: contactId,
    });
    await receiver.waitFor((r) => r.body?.event === "contato.apagado" && r.body?.data?.id === contactId, 1, 30_000);
    const stopped = await receiver.waitFor((r) => r.body?.event === "fluxo.parado" && r.body?.data?.id === runId, 1, 30_000);
    expect(stopped[0]!.body.data.reason).toBe("contact_erased");

    // The proof: no text or JSON column of any table holds any of it.
    expect(await search(needles)).toEqual([]);
  });

  it("answers 404 for an unknown contact and needs contacts:write", async () => {
    expectError(await del(`/contacts/ct_${unique()}`), { status: 404, type: "not_found", code: "resource_missing", param: "id" });
    const readOnly = api(ws.keys.readOnly);
    expectError(await readOnly.request("DELETE", `/contacts/ct_${unique()}`), { status: 403, type: "forbidden", code: "missing_scope" });
  });
});

describe("POST /contacts: add_tags and remove_tags (D78)", () => {
  it("adds and removes tags without replacing the set, and refuses them beside `tags`", async () => {
    const [a, b, c] = await Promise.all(
      ["A", "B", "C"].map(async (n) => (await test.post("/tags", { name: `${n} ${unique()}` })).body.id as string),
    );
    const p = phone();
    expect((await test.post("/contacts", { phone: p, tags: [a] })).body.tags).toEqual([a]);
    expect((await test.post("/contacts", { phone: p, add_tags: [b, c] })).body.tags).toEqual([a, b, c].sort());
    expect((await test.post("/contacts", { phone: p, remove_tags: [a, c] })).body.tags).toEqual([b]);
    expect((await test.post("/contacts", { phone: p, add_tags: [a], remove_tags: [b] })).body.tags).toEqual([a]);
    expectError(await test.post("/contacts", { phone: p, tags: [a], add_tags: [b] }), {
      status: 400,
      type: "invalid_request",
      param: "tags",
    });
    expectError(await test.post("/contacts", { phone: p, tags: [], remove_tags: [b] }), {
      status: 400,
      type: "invalid_request",
      param: "tags",
    });
    expectError(await test.post("/contacts", { phone: p, add_tags: [a, "tag_nope"] }), {
      status: 400,
      type: "invalid_request",
      code: "unknown_tag",
      param: "add_tags.1",
    });
    // A new contact takes its added tags.
    expect((await test.post("/contacts", { phone: phone(), add_tags: [c] })).body.tags).toEqual([c]);
  });
});

describe("to.name names a matched contact that has none (D78)", () => {
  it("fills the name on send, renders it, and never overwrites one", async () => {
    const p = phone();
    const contact = await test.post("/contacts", { phone: p });
    expect(contact.body.name).toBeNull();
    const sent = await test.post("/messages", { channel: "whatsapp", to: { phone: p, name: "Bia" }, whatsapp: { body: "Hi {{name}}" } });
    expect(sent.status).toBe(202);
    expect((await test.get(`/contacts/${contact.body.id as string}`)).body.name).toBe("Bia");
    const again = await test.post("/messages", { channel: "whatsapp", to: { phone: p, name: "Other" }, whatsapp: { body: "Hi {{name}}" } });
    expect(again.status).toBe(202);
    expect((await test.get(`/contacts/${contact.body.id as string}`)).body.name).toBe("Bia");
    const mail = `named.${unique()}@example.com`;
    const byEmail = await test.post("/contacts", { email: mail });
    expect(
      (
        await test.post("/messages", {
          channel: "email",
          to: { email: mail, name: "Caio" },
          email: { subject: "Hi {{name}}", html: "<p>x</p>" },
        })
      ).status,
    ).toBe(202);
    expect((await test.get(`/contacts/${byEmail.body.id as string}`)).body.name).toBe("Caio");
  });
});
