import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixtures } from "../../../e2e/support/client.ts";
import { dashboardMutation } from "../../../e2e/support/dashboard.ts";
import { startReceiver, type Receiver } from "../../../e2e/support/webhook-receiver.ts";
import { inject } from "vitest";
import { Svc, SvcError, verifyWebhook, type Tag } from "../src/index.js";

// D60: the official client against the real server of the API tests (both engines): every
// resource, typed errors, idempotency keys, paging over `Link`, and webhook verification of
// real deliveries.
const ws = fixtures().client!;
const baseUrl = inject("api").baseUrl;
const svc = new Svc({ apiKey: ws.keys.test!, baseUrl });
let seq = 0;
const phone = () => `+55119${String(60_000_000 + (Date.now() % 1_000_000) * 10 + seq++).slice(-8)}`;

let receiver: Receiver;
let secret = "";
beforeAll(async () => {
  receiver = await startReceiver();
  ({ secret } = await dashboardMutation<{ secret: string }>(ws.id, "webhooks.create", { url: receiver.url }));
});
afterAll(() => receiver.close());

describe("@svc/client against the service", () => {
  it("checks its key", async () => {
    await expect(svc.check()).resolves.toEqual({ ok: true, version: "1.0.0", workspace: expect.any(String), mode: "test" });
  });

  it("marks read only received messages, lists channels and checks an e-mail channel's DNS (D91, D92)", async () => {
    const sent = await svc.messages.send({ channel: "whatsapp", to: { phone: phone() }, whatsapp: { body: "Hi" } });
    await expect(svc.messages.read(sent.id, { typing: true })).rejects.toMatchObject({ status: 409, code: "not_inbound", param: "id" });
    await expect(svc.channels.list()).resolves.toEqual(expect.any(Array));
    await expect(svc.channels.dnsCheck("ch_unknown")).rejects.toMatchObject({ status: 404, type: "not_found", param: "id" });
  });

  it("creates tags and iterates a list across pages (Link, after)", async () => {
    const created: Tag[] = [];
    for (let i = 0; i < 5; i++) created.push(await svc.tags.create({ name: `Page ${i}` }));
    const listed: string[] = [];
    for await (const tag of svc.tags.list({ limit: 2 })) listed.push(tag.id);
    expect(listed).toEqual(expect.arrayContaining(created.map((t) => t.id)));
    expect(new Set(listed).size).toBe(listed.length);
  });

  it("adds, lists across pages and removes suppressed addresses (D72)", async () => {
    const emails = [0, 1, 2].map((i) => `client.${i}.${Date.now()}@example.com`);
    for (const email of emails) await expect(svc.suppressions.add({ email })).resolves.toMatchObject({ email, reason: "manual" });
    const listed: string[] = [];
    for await (const s of svc.suppressions.list({ limit: 2, reason: "manual" })) listed.push(s.email);
    expect(listed).toEqual(expect.arrayContaining(emails));
    await expect(svc.suppressions.remove(emails[0]!)).resolves.toMatchObject({ email: emails[0] });
    await expect(svc.suppressions.remove(emails[0]!)).rejects.toMatchObject({ status: 404, type: "not_found" });
  });

  it("upserts, gets and finds a contact with typed custom fields", async () => {
    await svc.fields.create({ name: "Plan", key: "plan", type: "text" });
    const p = phone();
    const contact = await svc.contacts.upsert({ phone: p, name: "Ana", fields: { plan: "gold" } });
    expect(contact).toMatchObject({ phone: p, name: "Ana", fields: { plan: "gold" } });
    await expect(svc.contacts.get(contact.id)).resolves.toEqual(contact);
    await expect(svc.contacts.find({ phone: p })).resolves.toEqual(contact);
    const fields: string[] = [];
    for await (const field of svc.fields.list()) fields.push(field.key);
    expect(fields).toContain("plan");
  });

  it("sends a message with an automatic idempotency key, and replays one given", async () => {
    const to = { phone: phone() };
    const a = await svc.messages.send({ channel: "whatsapp", to, whatsapp: { body: "Hi" } });
    const b = await svc.messages.send({ channel: "whatsapp", to, whatsapp: { body: "Hi" } });
    expect(a.id).not.toBe(b.id);
    const key = `client-${Date.now()}`;
    const c = await svc.messages.send(
      { channel: "email", to: { email: `c${seq++}@example.com` }, email: { html: "<p>Hi</p>" } },
      { idempotencyKey: key },
    );
    const d = await svc.messages.send(
      { channel: "email", to: { email: `c${seq - 1}@example.com` }, email: { html: "<p>Hi</p>" } },
      { idempotencyKey: key },
    );
    expect(d.id).toBe(c.id);
    await expect(svc.messages.get(a.id)).resolves.toMatchObject({ id: a.id, channel: "whatsapp" });
  });

  it("sends a batch answered item by item, schedules with send_at and cancels (D75, D76)", async () => {
    const p = phone();
    const sendAt = new Date(Date.now() + 3_600_000).toISOString();
    const { data } = await svc.messages.batch({
      messages: [
        { channel: "whatsapp", to: { phone: p }, whatsapp: { body: "Now" } },
        { channel: "whatsapp", to: { phone: "12" }, whatsapp: { body: "Bad" } },
        { channel: "whatsapp", to: { phone: p }, whatsapp: { body: "Later" }, send_at: sendAt },
      ],
    });
    // A message has an `id`; a refused item has only `error`.
    expect(data.map((item) => ("id" in item ? item.status : item.error.param))).toEqual(["queued", "messages.1.to.phone", "queued"]);
    const scheduled = data[2]!;
    if (!("id" in scheduled)) throw new Error("the scheduled item was refused");
    expect(scheduled.scheduled_at).toBe(sendAt);
    await expect(svc.messages.cancel(scheduled.id)).resolves.toMatchObject({ id: scheduled.id, status: "canceled" });
    await expect(svc.messages.cancel(scheduled.id)).rejects.toMatchObject({ status: 409, code: "message_not_cancelable", param: "id" });
  });

  it("throws typed errors with type, code, param and status", async () => {
    const missing = await svc.contacts.get("ct_nope").catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(SvcError);
    expect(missing).toMatchObject({ status: 404, type: "not_found", code: "resource_missing", param: "id", requestId: expect.any(String) });
    const invalid = await svc.messages.send({ channel: "whatsapp", to: { phone: "12" }, whatsapp: { body: "x" } }).catch((e: unknown) => e);
    expect(invalid).toMatchObject({ status: 400, type: "invalid_request", code: "invalid_phone" });
    const readOnly = new Svc({ apiKey: ws.keys.readOnly!, baseUrl });
    await expect(readOnly.usage.get()).resolves.toMatchObject({ period: expect.stringMatching(/^\d{4}-\d{2}$/) });
    await expect(readOnly.tags.create({ name: "No" })).rejects.toMatchObject({ status: 403, code: "missing_scope" });
  });

  it("enrolls and unenrolls a contact", async () => {
    const { flow_id } = await dashboardMutation<{ flow_id: string }>(ws.id, "flows.create", {
      definition: { name: "Client", status: "active", steps: [{ type: "wait", duration: "P1D" }] },
    });
    const to = { phone: phone() };
    const run = await svc.flows.enroll(flow_id, { to });
    expect(run).toMatchObject({ flow_id, status: "active" });
    const flows: string[] = [];
    for await (const flow of svc.flows.list()) flows.push(flow.id);
    expect(flows).toContain(flow_id);
    await expect(svc.flows.unenroll("all", { to, reason: "done" })).resolves.toMatchObject({ unenrolled: 1, runs: [{ id: run.id }] });
  });

  it("reads a flow's statistics and previews an edit", async () => {
    const steps = [{ type: "wait", id: "day", duration: "P1D" }];
    const { flow_id } = await dashboardMutation<{ flow_id: string }>(ws.id, "flows.create", {
      definition: { name: "Client stats", status: "active", steps },
    });
    const run = await svc.flows.enroll(flow_id, { to: { phone: phone() } });
    const stats = await svc.flows.stats(flow_id);
    expect(stats).toMatchObject({ flow_id, runs: { active: 1 }, versions: [{ version: 1, steps: [{ id: "day", path: "steps.0" }] }] });
    const preview = await svc.flows.preview(flow_id, { name: "Client stats", migrate: "move", steps: [{ type: "exit", id: "day" }] });
    expect(preview).toMatchObject({ counts: { runs: 1, moved: 1 }, runs: [{ run_id: run.id }] });
  });

  it("records events that start a keyed run, and reads the run with its history", async () => {
    const { flow_id } = await dashboardMutation<{ flow_id: string }>(ws.id, "flows.create", {
      definition: {
        name: "Client events",
        status: "active",
        trigger: { event: "client_signup", key: "{{event.account}}" },
        steps: [{ type: "wait_for", event: "client_activated", match: { account: "{{run.key}}" }, timeout: "P1D" }],
      },
    });
    const to = { phone: phone() };
    const event = await svc.events.record({ name: "client_signup", to, properties: { account: "acc_1" }, id: `signup-${to.phone}` });
    // The answer is final about triggers: the run exists when it arrives.
    expect(event).toMatchObject({
      id: expect.stringMatching(/^cev_/),
      name: "client_signup",
      triggered: [{ flow_id, key: "acc_1", run_id: expect.stringMatching(/^run_/) }],
    });
    const listed: string[] = [];
    for await (const e of svc.events.list({ contact_id: event.contact_id })) listed.push(e.id);
    expect(listed).toEqual([event.id]);
    const runs: { id: string; key: string | null }[] = [];
    for await (const r of svc.runs.list(flow_id, { key: "acc_1" })) runs.push(r);
    expect(runs.map((r) => r.id)).toEqual([event.triggered[0]!.run_id]);
    // The wait begins when the run reaches its step: an event recorded before that (the pipeline
    // slower than this client) would not count, the step having no lookback (D63).
    let run = await svc.runs.get(runs[0]!.id);
    for (let i = 0; i < 100 && !run.history.some((h) => h.kind === "waiting"); i++) {
      await new Promise((r) => setTimeout(r, 100));
      run = await svc.runs.get(run.id);
    }
    await svc.events.record({ name: "client_activated", to, properties: { account: "acc_1" } });
    run = await svc.runs.get(run.id);
    for (let i = 0; i < 100 && run.status === "active"; i++) {
      await new Promise((r) => setTimeout(r, 100));
      run = await svc.runs.get(run.id);
    }
    expect(run).toMatchObject({ status: "completed", key: "acc_1" });
    expect(run.history.map((h) => h.kind)).toEqual(["entered", "waiting", "woke", "path", "ended"]);
  });

  it("verifies every webhook delivery the service made with verifyWebhook", async () => {
    const contact = await svc.contacts.upsert({ phone: phone() });
    const deliveries = await receiver.waitFor((r) => r.body?.data?.id === contact.id, 1, 30_000);
    for (const delivery of receiver.received) {
      const headers = Object.fromEntries(Object.entries(delivery.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(",") : v]));
      await expect(verifyWebhook(delivery.raw, headers, { secret })).resolves.toMatchObject({ id: delivery.body.id });
    }
    expect(deliveries[0]!.body).toMatchObject({ event: "contato.criado", data: { id: contact.id } });
    await expect(
      verifyWebhook(deliveries[0]!.raw.replace(contact.id, "ct_other"), deliveries[0]!.headers as never, { secret }),
    ).rejects.toThrow();
  });
});
