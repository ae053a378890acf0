import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api, expectError, fixtures } from "../support/client.ts";
import { dashboardMutation, dashboardQuery } from "../support/dashboard.ts";
import { contactEvents } from "../support/events.ts";
import { startSmtpSink, type SmtpSink } from "../support/smtp-sink.ts";
import { poller } from "../support/until.ts";

// Suppressions (D72, D85) and the bounces and complaints that fill them (D73) over real HTTP,
// the real pipeline and a real SMTP relay on loopback (smtp-server).
const ws = fixtures().suppressions!;
const live = api(ws.keys.live);
const test = api(ws.keys.test);
const baseUrl = inject("api").baseUrl;
const until = poller(20_000);
let smtp: SmtpSink;
let eventsToken = "";

const address = (name = "ana") => `${name}.${randomUUID().slice(0, 8)}@Example.com`;
const sendEmail = (key: ReturnType<typeof api>, to: string) =>
  key.post("/messages", { channel: "email", to: { email: to }, email: { subject: "Hi", html: "<p>Hi</p>" } });
const finalStatus = (key: ReturnType<typeof api>, id: string, status: string) =>
  until(
    () => key.get(`/messages/${id}`),
    (r) => r.body.status === status,
  );
const listAll = async (key = live, query = "") => (await key.get(`/suppressions?limit=1000${query}`)).body as { email: string }[];

beforeAll(async () => {
  smtp = await startSmtpSink();
  const connected = await dashboardMutation<{ events_token: string }>(ws.id, "channels.connect", {
    type: "email",
    smtp_url: smtp.url,
    from: "news@shop.example",
  });
  eventsToken = connected.events_token;
});

afterAll(async () => {
  await smtp?.close();
});

describe("the suppression list (D72, D85)", () => {
  it("adds an address by hand (201), answers the existing entry again (200), and refuses other reasons", async () => {
    const email = address();
    const first = await live.post("/suppressions", { email });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({
      email: email.replace("Example.com", "example.com"),
      reason: "manual",
      message_id: null,
      detail: null,
      created_at: expect.any(String),
    });
    const again = await live.post("/suppressions", { email: email.toUpperCase(), reason: "manual" });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expectError(await live.post("/suppressions", { email: address(), reason: "hard_bounce" }), {
      status: 400,
      type: "invalid_request",
      param: "reason",
    });
    expectError(await live.post("/suppressions", { email: "not an address" }), { status: 400, type: "invalid_request", param: "email" });
    expectError(await live.post("/suppressions", {}), { status: 400, type: "invalid_request", param: "email" });
  });

  it("lists in order with paging by address, filters by reason, and keeps test and live apart", async () => {
    const emails = [address("p1"), address("p2"), address("p3")];
    for (const email of emails) expect((await live.post("/suppressions", { email })).status).toBe(201);
    const all = (await listAll()).map((s) => s.email);
    const mine = all.filter((e) => emails.map((x) => x.toLowerCase()).includes(e.toLowerCase()));
    expect(mine.map((e) => e.toLowerCase())).toEqual(emails.map((e) => e.toLowerCase()));
    const page1 = await live.get(`/suppressions?limit=1&after=${encodeURIComponent(emails[0]!)}`);
    expect(page1.body.map((s: { email: string }) => s.email.toLowerCase())).toEqual([emails[1]!.toLowerCase()]);
    expect(page1.headers.get("link")).toContain(`after=${encodeURIComponent(page1.body[0].email)}`);
    expectError(await live.get(`/suppressions?after=${encodeURIComponent(address("nobody"))}`), {
      status: 400,
      type: "invalid_request",
      param: "after",
    });
    expect(
      (await live.get("/suppressions?reason=complaint&limit=1000")).body.every((s: { reason: string }) => s.reason === "complaint"),
    ).toBe(true);
    expectError(await live.get("/suppressions?reason=spam"), { status: 400, type: "invalid_request", param: "reason" });
    // A test key sees its own mode's list only.
    expect((await listAll(test)).some((s) => emails.map((e) => e.toLowerCase()).includes(s.email.toLowerCase()))).toBe(false);
    // The read-only key reads; it cannot write.
    expect((await api(ws.keys.readOnly).get("/suppressions")).status).toBe(200);
    expectError(await api(ws.keys.readOnly).post("/suppressions", { email: address() }), {
      status: 403,
      type: "forbidden",
      code: "missing_scope",
    });
  });

  it("refuses a live e-mail to a suppressed address (409, to.email), after the opt-out rule, in batches too; DELETE sends again", async () => {
    const email = address("refused");
    expect((await live.post("/suppressions", { email })).status).toBe(201);
    expectError(await sendEmail(live, email.toLowerCase()), {
      status: 409,
      type: "conflict",
      code: "recipient_suppressed",
      param: "to.email",
    });
    // By contact id too: the contact's address is what counts.
    const contact = await live.post("/contacts", { email });
    expectError(await live.post("/messages", { channel: "email", to: { contact_id: contact.body.id }, email: { html: "x" } }), {
      status: 409,
      type: "conflict",
      code: "recipient_suppressed",
      param: "to.email",
    });
    const batch = await live.post("/messages/batch", {
      messages: [
        { channel: "email", to: { email: address("fine") }, email: { html: "x" } },
        { channel: "email", to: { email }, email: { html: "x" } },
      ],
    });
    expect(batch.status).toBe(200);
    expect(batch.body.data[0].status).toBe("queued");
    expect(batch.body.data[1].error).toMatchObject({ code: "recipient_suppressed", param: "messages.1.to.email" });
    // A test key's send is not refused: live suppressions are not its list.
    expect((await sendEmail(test, email)).status).toBe(202);
    // The opt-out rule comes first (D72 after D16).
    await live.post("/contacts", { email, opt_out_email: true });
    expectError(await sendEmail(live, email), { status: 409, type: "conflict", code: "recipient_opted_out", param: "to" });
    await live.post("/contacts", { email, opt_out_email: false });

    const removed = await live.request("DELETE", `/suppressions/${encodeURIComponent(email.toUpperCase())}`);
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({ reason: "manual" });
    expectError(await live.request("DELETE", `/suppressions/${encodeURIComponent(email)}`), {
      status: 404,
      type: "not_found",
      param: "email",
    });
    const sent = await sendEmail(live, email);
    expect(sent.status).toBe(202);
    await finalStatus(live, sent.body.id, "sent");
  });

  it("test keys: bounced@example.com fails as a hard bounce and lands in the test list only", async () => {
    const res = await sendEmail(test, "bounced@example.com");
    expect(res.status).toBe(202);
    const failed = await finalStatus(test, res.body.id, "failed");
    expect(failed.body.error_code).toBe("bounce_hard");
    const entry = (await listAll(test)).find((s) => s.email === "bounced@example.com");
    expect(entry).toMatchObject({ reason: "hard_bounce", message_id: res.body.id });
    expect((await listAll(live)).some((s) => s.email === "bounced@example.com")).toBe(false);
  });
});

describe("bounces over SMTP (D73)", () => {
  it("a 550 from the relay fails the message as smtp_550, suppresses the address, and the next live send is refused", async () => {
    const email = address("gone");
    smtp.reject(550, { message: "5.1.1 User unknown", at: "rcpt", times: 1 });
    const res = await sendEmail(live, email);
    expect(res.status).toBe(202);
    const failed = await finalStatus(live, res.body.id, "failed");
    expect(failed.body.error_code).toBe("smtp_550");
    const entry = (await listAll()).find((s) => s.email.toLowerCase() === email.toLowerCase());
    expect(entry).toMatchObject({ reason: "hard_bounce", message_id: res.body.id, detail: expect.stringContaining("User unknown") });
    expectError(await sendEmail(live, email), { status: 409, type: "conflict", code: "recipient_suppressed", param: "to.email" });
    // mensagem.falhou carries error_code.
    const events = await contactEvents(ws.id, failed.body.contact_id);
    expect(events.find((e) => e.event === "mensagem.falhou")?.data).toMatchObject({ id: res.body.id, error_code: "smtp_550" });
  });

  it("a temporary 450 does not suppress", async () => {
    const email = address("busy");
    smtp.reject(450, { message: "4.2.1 Mailbox busy", at: "rcpt", times: 1 });
    const res = await sendEmail(live, email);
    const history = await until(
      () => dashboardQuery<{ history: { kind: string }[] }>(ws.id, "messages.detail", { id: res.body.id }),
      (m) => m.history.some((h) => h.kind === "retry"),
    );
    expect(history.history.some((h) => h.kind === "retry")).toBe(true);
    expect((await listAll()).some((s) => s.email.toLowerCase() === email.toLowerCase())).toBe(false);
  });
});

describe("the events endpoint (D39, D73)", () => {
  const post = (body: unknown) =>
    fetch(`${baseUrl}/api/providers/email/events`, {
      method: "POST",
      headers: { Authorization: `Bearer ${eventsToken}`, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });

  it("a bounced report fails and suppresses; a complaint suppresses and opts the contact out", async () => {
    const bounced = address("late");
    const first = await sendEmail(live, bounced);
    await finalStatus(live, first.body.id, "sent");
    expect((await post({ message_id: first.body.id, event: "bounced", reason: "550 5.1.1 no such user" })).status).toBe(200);
    const failed = await finalStatus(live, first.body.id, "failed");
    expect(failed.body.error_code).toBe("smtp_550");
    expect((await listAll()).find((s) => s.email.toLowerCase() === bounced.toLowerCase())).toMatchObject({ reason: "hard_bounce" });

    const complainer = address("spam");
    const second = await sendEmail(live, complainer);
    await finalStatus(live, second.body.id, "sent");
    expect((await post({ message_id: second.body.id, event: "complained" })).status).toBe(200);
    expect((await listAll()).find((s) => s.email.toLowerCase() === complainer.toLowerCase())).toMatchObject({
      reason: "complaint",
      message_id: second.body.id,
    });
    expect((await live.get(`/contacts/${second.body.contact_id}`)).body.opt_out_email).toBe(true);
  });
});

describe("flows (D72, D81)", () => {
  it("a live e-mail step skips a suppressed address with reason recipient_suppressed, whatever its case", async () => {
    const email = address("flow");
    // The step reads the suppression with the contact it locks: matched as the address's lower case (D59).
    expect((await live.post("/suppressions", { email: email.toUpperCase() })).status).toBe(201);
    const { flow_id } = await dashboardMutation<{ flow_id: string }>(ws.id, "flows.create", {
      definition: {
        name: `Suppressed ${randomUUID()}`,
        status: "active",
        steps: [{ type: "send", channel: "email", email: { html: "x" } }],
      },
    });
    const run = await live.post(`/flows/${flow_id}/enroll`, { to: { email } });
    expect(run.status).toBe(201);
    const done = await until(
      () =>
        dashboardQuery<{ status: string; history: { kind: string; detail: Record<string, unknown> }[] }>(ws.id, "flows.run", {
          run_id: run.body.id,
        }),
      (r) => r.status !== "active",
    );
    expect(done.history.filter((h) => h.kind === "skipped").map((h) => h.detail)).toEqual([
      expect.objectContaining({ type: "send", channel: "email", code: "recipient_suppressed", skip: "recipient_suppressed" }),
    ]);
  });
});
