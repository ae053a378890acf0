import Stripe from "stripe";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, expectError, fixtures } from "../support/client.ts";
import { dashboardMutation } from "../support/dashboard.ts";
import { startReceiver, type Received, type Receiver } from "../support/webhook-receiver.ts";
import { until } from "../support/until.ts";

// Issue "For integrators" over real HTTP, on both engines: Standard Webhooks signatures next
// to X-svc-Signature and one event id format (D55), GET /messages with contact_id and
// metadata (D57), unknown body parameters refused (D58), e-mail addresses matched
// case-insensitively (D59), and the conventions of the issue (validation messages in our own
// words, doc_url on the code's anchor).
const ws = fixtures().integrators!;
const test = api(ws.keys.test);
const live = api(ws.keys.live);
const stripe = new Stripe("sk_test_unused");
const mutation = <T>(path: string, input: unknown) => dashboardMutation<T>(ws.id, path, input);

/** The id format of server/lib/ids.ts: prefix, 9 base36 characters of time, 16 base62. */
const EVENT_ID = /^evt_[0-9a-z]{9}[0-9A-Za-z]{16}$/;

let seq = 0;
const unique = () => `${Date.now().toString(36)}${seq++}`;
const phone = () => `+55119${String(60_000_000 + ((Date.now() * 7 + seq++) % 10_000_000)).slice(-8)}`;

describe("Standard Webhooks (D55)", () => {
  let receiver: Receiver;
  let endpointId = "";
  let secrets: string[] = [];

  beforeAll(async () => {
    receiver = await startReceiver();
    const created = await mutation<{ id: string; secret: string }>("webhooks.create", { url: receiver.url });
    endpointId = created.id;
    secrets = [created.secret];
  });
  afterAll(async () => {
    await mutation("webhooks.delete", { endpoint_id: endpointId });
    await receiver.close();
  });

  /** Checks one delivery with both packages, with every secret the receiver holds. */
  function verifyBoth(hit: Received, secret: string) {
    const standard = new Webhook(secret).verify(hit.raw, {
      "webhook-id": hit.headers["webhook-id"] as string,
      "webhook-timestamp": hit.headers["webhook-timestamp"] as string,
      "webhook-signature": hit.headers["webhook-signature"] as string,
    }) as Record<string, unknown>;
    const viaStripe = stripe.webhooks.constructEvent(hit.raw, hit.headers["x-svc-signature"] as string, secret, 300) as unknown as Record<
      string,
      unknown
    >;
    expect(standard).toEqual(viaStripe);
    return standard;
  }

  it("signs every kind of event so that standardwebhooks and stripe both verify it, with one event id format", async () => {
    // contato.criado and contato.atualizado
    const contact = await live.post("/contacts", { phone: phone(), name: "Hook" });
    expect(contact.status).toBe(200);
    expect((await live.post("/contacts", { phone: contact.body.phone, name: "Hook 2" })).status).toBe(200);
    // mensagem.enviada, mensagem.entregue, mensagem.lida (test mode walks them), and mensagem.falhou
    const read = await test.post("/messages", {
      channel: "whatsapp",
      to: { contact_id: contact.body.id },
      whatsapp: { body: "Hi" },
      metadata: { order_id: "ord_1042" },
    });
    expect(read.status).toBe(202);
    const failed = await test.post("/messages", {
      channel: "email",
      to: { email: "failed@example.com" },
      email: { subject: "S", html: "<p>x</p>" },
    });
    expect(failed.status).toBe(202);
    // fluxo.parado (stopped in SQL) and fluxo.concluido
    const { flow_id: waiting } = await mutation<{ flow_id: string }>("flows.create", {
      definition: { name: `Wait ${unique()}`, status: "active", steps: [{ type: "wait", duration: "PT1H" }] },
    });
    const { flow_id: short } = await mutation<{ flow_id: string }>("flows.create", {
      definition: { name: `Exit ${unique()}`, status: "active", steps: [{ type: "exit" }] },
    });
    expect((await live.post(`/flows/${waiting}/enroll`, { to: { contact_id: contact.body.id } })).status).toBe(201);
    expect((await live.post(`/flows/${short}/enroll`, { to: { contact_id: contact.body.id } })).status).toBe(201);
    const stopped = await live.post(`/flows/${waiting}/unenroll`, { to: { contact_id: contact.body.id }, reason: "test" });
    expect(stopped.body.unenrolled).toBe(1);

    const wanted = [
      "contato.criado",
      "contato.atualizado",
      "mensagem.enviada",
      "mensagem.entregue",
      "mensagem.lida",
      "mensagem.falhou",
      "fluxo.concluido",
      "fluxo.parado",
    ];
    const mine = (r: Received) =>
      [contact.body.id, read.body.id, failed.body.id].includes(r.body?.data?.id) || r.body?.data?.contact === contact.body.id;
    await until(
      async () => new Set(receiver.received.filter(mine).map((r) => r.body.event)),
      (names) => wanted.every((n) => names.has(n)),
      30_000,
    );
    const hits = receiver.received.filter(mine);
    for (const hit of hits) {
      const event = verifyBoth(hit, secrets[0]!);
      expect(event.id, `${String(event.event)} id`).toMatch(EVENT_ID);
      expect(event.type).toBe(event.event);
      expect(hit.headers["webhook-id"]).toBe(event.id);
      expect(hit.headers["x-svc-event-id"]).toBe(event.id);
      expect(hit.headers["webhook-timestamp"]).toBe(/t=(\d+)/.exec(hit.headers["x-svc-signature"] as string)![1]);
      expect(hit.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
      // A tampered body fails both checks.
      expect(() => verifyBoth({ ...hit, raw: hit.raw.replace("}", ', "x": 1}') }, secrets[0]!)).toThrow();
    }
    // The message's metadata is in its events' data (D57).
    const messageEvents = hits.filter((h) => h.body.data.id === read.body.id);
    expect(messageEvents.map((h) => h.body.data.metadata)).toEqual(messageEvents.map(() => ({ order_id: "ord_1042" })));
    expect(hits.find((h) => h.body.data.id === failed.body.id)!.body.data).toMatchObject({ status: "failed", metadata: {} });
  });

  it("carries one signature per valid secret during a rotation, each verified by both packages", async () => {
    const rotated = await mutation<{ secret: string }>("webhooks.rotateSecret", { endpoint_id: endpointId });
    secrets = [rotated.secret, ...secrets];
    const contact = await live.post("/contacts", { email: `rotate-${unique()}@example.com` });
    const [hit] = await receiver.waitFor((r) => r.body?.data?.id === contact.body.id);
    expect((hit!.headers["webhook-signature"] as string).split(" ")).toHaveLength(2);
    for (const secret of secrets) expect(verifyBoth(hit!, secret)).toMatchObject({ event: "contato.criado" });
    expect(() => new Webhook(`whsec_${"A".repeat(32)}`).verify(hit!.raw, hit!.headers as Record<string, string>)).toThrow();
  });
});

describe("GET /messages (D57)", () => {
  let contactId = "";
  let other = "";
  const sent: string[] = [];

  beforeAll(async () => {
    contactId = (await test.post("/contacts", { phone: phone() })).body.id;
    other = (await test.post("/contacts", { email: `list-${unique()}@example.com` })).body.id;
    for (let i = 0; i < 3; i++) {
      const res = await test.post("/messages", {
        channel: "whatsapp",
        to: { contact_id: contactId },
        whatsapp: { body: `Hello ${i}` },
        metadata: { order_id: `ord_${i}`, step: "welcome" },
      });
      expect(res.status).toBe(202);
      sent.push(res.body.id);
    }
    const email = await test.post("/messages", { channel: "email", to: { contact_id: other }, email: { subject: "S", html: "<p>x</p>" } });
    sent.push(email.body.id);
  });

  it("returns contact_id and metadata on the Message, on send and on read", async () => {
    const got = await test.get(`/messages/${sent[0]}`);
    expect(got.body).toMatchObject({ id: sent[0], contact_id: contactId, metadata: { order_id: "ord_0", step: "welcome" } });
    expect((await test.get(`/messages/${sent[3]}`)).body).toMatchObject({ contact_id: other, metadata: {} });
  });

  it("lists the key's mode's messages newest first, filtered, in pages with a Link that keeps the filters", async () => {
    const all = await test.get(`/messages?contact_id=${contactId}`);
    expect(all.status).toBe(200);
    expect(all.body.map((m: { id: string }) => m.id)).toEqual([...sent.slice(0, 3)].reverse());
    expect(all.headers.get("link")).toBeNull();

    const first = await test.get(`/messages?contact_id=${contactId}&channel=whatsapp&limit=2`);
    expect(first.body.map((m: { id: string }) => m.id)).toEqual([sent[2], sent[1]]);
    const link = first.headers.get("link")!;
    expect(link).toMatch(/rel="next"/);
    const next = new URL(/<([^>]+)>/.exec(link)![1]!);
    expect(Object.fromEntries(next.searchParams)).toEqual({ contact_id: contactId, channel: "whatsapp", limit: "2", after: sent[1] });
    const second = await test.get(`${next.pathname.replace("/api/v1", "")}${next.search}`);
    expect(second.body.map((m: { id: string }) => m.id)).toEqual([sent[0]]);
    expect(second.headers.get("link")).toBeNull();

    const byChannel = await test.get(`/messages?channel=email&contact_id=${other}`);
    expect(byChannel.body.map((m: { id: string }) => m.id)).toEqual([sent[3]]);
    expect((await test.get(`/messages?direction=outbound&contact_id=${other}`)).body).toHaveLength(1);
    expect((await test.get(`/messages?direction=inbound&contact_id=${other}`)).body).toEqual([]);

    const created = (await test.get(`/messages/${sent[1]}`)).body.created_at as string;
    const before = await test.get(`/messages?contact_id=${contactId}&created_before=${encodeURIComponent(created)}`);
    expect(before.body.map((m: { id: string }) => m.id)).toEqual([sent[0]]);
    const after = await test.get(
      `/messages?contact_id=${contactId}&created_after=${encodeURIComponent(new Date(Date.parse(created) - 1).toISOString())}`,
    );
    expect(after.body.map((m: { id: string }) => m.id)).toEqual([sent[2], sent[1]]);

    const read = await until(
      () => test.get(`/messages?contact_id=${contactId}&status=read`),
      (r) => r.body.length === 3,
    );
    expect(read.body.every((m: { status: string }) => m.status === "read")).toBe(true);

    // Another mode's messages are not listed (D40); the read-only key may list.
    expect((await live.get(`/messages?contact_id=${contactId}`)).body).toEqual([]);
    expect((await api(ws.keys.readOnly).get(`/messages?contact_id=${contactId}`)).status).toBe(200);
  });

  it.each([
    {
      name: "a key without messages:read",
      key: "sendOnly",
      query: "",
      expected: { status: 403, type: "forbidden", code: "missing_scope" },
    },
    {
      name: "an unknown status",
      key: "test",
      query: "?status=bounced",
      expected: { status: 400, type: "invalid_request", param: "status" },
    },
    {
      name: "a malformed created_after",
      key: "test",
      query: "?created_after=yesterday",
      expected: { status: 400, type: "invalid_request", param: "created_after" },
    },
    {
      name: "an after of another list",
      key: "test",
      query: "?after=msg_nope",
      expected: { status: 400, type: "invalid_request", code: "invalid_cursor", param: "after" },
    },
  ])("refuses $name", async ({ key, query, expected }) => {
    expectError(await api(ws.keys[key]).get(`/messages${query}`), expected);
  });

  it.each([
    { name: "more than 20 keys", metadata: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, "v"])), param: "metadata" },
    { name: "a key over 40 characters", metadata: { ["k".repeat(41)]: "v" }, param: `metadata.${"k".repeat(41)}` },
    { name: "a value over 500 characters", metadata: { note: "x".repeat(501) }, param: "metadata.note" },
    { name: "a value that is not a string", metadata: { amount: 10 }, param: "metadata.amount" },
  ])("refuses metadata with $name", async ({ metadata, param }) => {
    const res = await test.post("/messages", { channel: "whatsapp", to: { contact_id: contactId }, whatsapp: { body: "x" }, metadata });
    expectError(res, { status: 400, type: "invalid_request", code: "parameter_invalid", param });
  });

  it("accepts 20 keys of 40 characters with values of 500", async () => {
    const metadata = Object.fromEntries(
      Array.from({ length: 20 }, (_, i) => [`${String(i).padStart(2, "0")}${"k".repeat(38)}`, "v".repeat(500)]),
    );
    const res = await test.post("/messages", { channel: "whatsapp", to: { contact_id: contactId }, whatsapp: { body: "x" }, metadata });
    expect(res.status).toBe(202);
    expect(res.body.metadata).toEqual(metadata);
  });
});

describe("unknown body parameters (D58)", () => {
  let flowId = "";
  beforeAll(async () => {
    ({ flow_id: flowId } = await mutation<{ flow_id: string }>("flows.create", {
      definition: { name: `D58 ${unique()}`, status: "active", steps: [{ type: "wait", duration: "PT1H" }] },
    }));
  });

  const send = { channel: "whatsapp", to: { phone: "+5511955550199" }, whatsapp: { body: "Hi" } };
  it.each([
    { name: "an email object on a WhatsApp send", path: "/messages", body: { ...send, email: { html: "<p>x</p>" } }, param: "email" },
    {
      name: "a whatsapp object on an e-mail send",
      path: "/messages",
      body: { channel: "email", to: { email: "a@example.com" }, email: { html: "x" }, whatsapp: {} },
      param: "whatsapp",
    },
    { name: "a misspelt top-level field", path: "/messages", body: { ...send, chanel_id: "ch_1" }, param: "chanel_id" },
    {
      name: "an unknown recipient field",
      path: "/messages",
      body: { ...send, to: { phone: "+5511955550199", fax: "1" } },
      param: "to.fax",
    },
    {
      name: "an unknown content field",
      path: "/messages",
      body: { ...send, whatsapp: { body: "Hi", buttons: [] } },
      param: "whatsapp.buttons",
    },
    { name: "an unknown contact field", path: "/contacts", body: { email: "d58@example.com", nickname: "D" }, param: "nickname" },
    { name: "an unknown tag field", path: "/tags", body: { name: "D58", colour: "#ff0000" }, param: "colour" },
    { name: "an unknown custom-field field", path: "/custom-fields", body: { name: "D58", key: "d58", kind: "text" }, param: "kind" },
    { name: "an unknown enroll field", path: "/flows/{flow}/enroll", body: { to: { phone: "+5511955550199" }, vars: {} }, param: "vars" },
    {
      name: "an unknown unenroll field",
      path: "/flows/{flow}/unenroll",
      body: { to: { phone: "+5511955550199" }, why: "x" },
      param: "why",
    },
  ])("refuses $name with unknown_parameter and its dotted path", async ({ path, body, param }) => {
    const res = await test.post(path.replace("{flow}", flowId), body);
    const error = expectError(res, { status: 400, type: "invalid_request", code: "unknown_parameter", param });
    expect(error.message).toBe(`${param} is not a known parameter of this request.`);
    expect(error.doc_url).toMatch(/\/docs\/errors#code-unknown_parameter$/);
  });

  it("says what is wrong in our own words, not the validator's", async () => {
    const res = await test.post("/messages", { ...send, channel: "telegram" });
    const error = expectError(res, { status: 400, type: "invalid_request", code: "parameter_invalid", param: "channel" });
    expect(error.message).toBe("channel: must be one of `whatsapp`, `email`, `sms`");
    const missing = expectError(await test.post("/tags", {}), {
      status: 400,
      type: "invalid_request",
      code: "parameter_missing",
      param: "name",
    });
    expect(missing.message).toBe("name: is required");
    const wrongType = expectError(await test.post("/contacts", { email: "t@example.com", opt_out_email: "yes" }), {
      status: 400,
      type: "invalid_request",
      param: "opt_out_email",
    });
    expect(wrongType.message).toBe("opt_out_email: must be true or false");
  });
});

describe("e-mail addresses are case-insensitive (D59)", () => {
  it("matches a contact by e-mail whatever the case, keeping the address as first given", async () => {
    const id = unique();
    const first = await test.post("/contacts", { email: `Ana.Case.${id}@Example.com`, name: "Ana" });
    expect(first.status).toBe(200);
    expect(first.body.email).toBe(`Ana.Case.${id}@example.com`);
    const again = await test.post("/contacts", { email: `ana.case.${id}@example.com`, name: "Ana C." });
    expect(again.body).toMatchObject({ id: first.body.id, email: `Ana.Case.${id}@example.com`, name: "Ana C." });

    const found = await test.get(`/contacts?email=${encodeURIComponent(`ANA.CASE.${id}@EXAMPLE.COM`)}`);
    expect(found.body.id).toBe(first.body.id);

    // A send and an enrollment by e-mail reach the same contact, at the stored address.
    const message = await test.post("/messages", {
      channel: "email",
      to: { email: `ANA.case.${id}@example.com` },
      email: { subject: "S", html: "<p>x</p>" },
    });
    expect(message.body).toMatchObject({ contact_id: first.body.id, to: `Ana.Case.${id}@example.com` });
  });

  it("keeps addresses unique case-insensitively: another contact cannot take one in another case", async () => {
    const id = unique();
    await test.post("/contacts", { email: `bob.${id}@example.com` });
    const withPhone = await test.post("/contacts", { phone: phone() });
    const taken = await test.post("/contacts", { phone: withPhone.body.phone, email: `BOB.${id}@example.com` });
    expectError(taken, { status: 409, type: "conflict", code: "email_taken", param: "email" });
    // The contact's own address in another case is no change.
    const own = await test.post("/contacts", { phone: phone(), email: `Carol.${id}@example.com` });
    const same = await test.post("/contacts", { phone: own.body.phone, email: `carol.${id}@example.com` });
    expect(same.body).toMatchObject({ id: own.body.id, email: `Carol.${id}@example.com`, updated_at: own.body.updated_at });
  });
});
