import pg from "pg";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { api, expectError, fixtures } from "../support/client.ts";
import { dashboardMutation, dashboardQuery } from "../support/dashboard.ts";
import { queryDatabase } from "../support/database.ts";
import { contactEvents } from "../support/events.ts";
import { poller } from "../support/until.ts";

// Journeys over real HTTP (issue "Journeys", D6, D7, D17, D18, D19, D37, D38, D40): flows are
// made through the dashboard's API, contacts are enrolled and unenrolled through the public
// API, and the inline pipeline walks the runs.
const ws = fixtures().flows!;
const test = api(ws.keys.test);
const live = api(ws.keys.live);

type Run = {
  id: string;
  status: string;
  version: number;
  reason: string | null;
  position: unknown;
  history: { kind: string; detail: Record<string, unknown> }[];
};

const mutation = <T>(path: string, input: unknown) => dashboardMutation<T>(ws.id, path, input);
const query = <T>(path: string, input: unknown) => dashboardQuery<T>(ws.id, path, input);

let vip = "";
let nurture = "";
let seq = 0;
const phone = () => `+55119${String(70_000_000 + (Date.now() % 1_000_000) * 10 + seq++).slice(-8)}`;

async function flow(steps: unknown[], extra: Record<string, unknown> = {}): Promise<string> {
  const { flow_id } = await mutation<{ flow_id: string }>("flows.create", {
    definition: { name: `Flow ${seq++}`, status: "active", steps, ...extra },
  });
  return flow_id;
}

const until = poller(15_000);
const sql = (text: string, params: unknown[] = []) => queryDatabase(inject("api").env, text, params);

const runOf = (id: string) => query<Run>("flows.run", { run_id: id });
const finished = (id: string) =>
  until(
    () => runOf(id),
    (r) => r.status !== "active",
  );
const contact = async (id: string) => (await test.get(`/contacts/${id}`)).body;

beforeAll(async () => {
  vip = (await test.post("/tags", { name: "VIP" })).body.id;
  nurture = (await test.post("/tags", { name: "Nurture" })).body.id;
  expect((await test.post("/custom-fields", { name: "Stage", key: "stage" })).status).toBe(201);
  expect((await test.post("/custom-fields", { name: "Coupon", key: "coupon" })).status).toBe(201);
});

describe("GET /flows (D6, D10)", () => {
  it("lists active flows only, in creation order", async () => {
    const a = await flow([{ type: "exit" }]);
    const { flow_id: draft } = await mutation<{ flow_id: string }>("flows.create", {
      definition: { name: "Draft", steps: [{ type: "exit" }] },
    });
    const b = await flow([{ type: "exit" }]);
    const res = await test.get("/flows?limit=1000");
    expect(res.status).toBe(200);
    const ids = (res.body as { id: string; status: string }[]).map((f) => f.id);
    expect(ids).toContain(a);
    expect(ids).not.toContain(draft);
    expect(ids.indexOf(a)).toBeLessThan(ids.indexOf(b));
    expect(res.body.find((f: { id: string }) => f.id === a)).toEqual({
      id: a,
      name: expect.any(String),
      status: "active",
      created_at: expect.any(String),
    });
    const page = await test.get("/flows?limit=1");
    expect(page.body).toHaveLength(1);
    expect(page.headers.get("link")).toMatch(/rel="next"/);
  });

  it("needs flows:read, and enroll needs flows:enroll", async () => {
    const f = await flow([{ type: "exit" }]);
    const readOnly = api(ws.keys.readOnly);
    expect((await readOnly.get("/flows")).status).toBe(200);
    expectError(await readOnly.post(`/flows/${f}/enroll`, { to: { phone: phone() } }), { status: 403, type: "forbidden" });
    expectError(await readOnly.post(`/flows/${f}/unenroll`, { to: { phone: phone() } }), { status: 403, type: "forbidden" });
  });
});

describe("enroll (D15, D18, D40)", () => {
  it("answers 201 with the run, then walks it to completed: tags, branch, fields, a test message with run variables", async () => {
    const f = await flow([
      { type: "tag", add: [vip] },
      { type: "branch", if: { has_tag: vip }, then: [{ type: "set_field", key: "stage", value: "vip" }], else: [{ type: "exit" }] },
      { type: "send", channel: "whatsapp", whatsapp: { body: "Hi {{name}}, use {{coupon}}{{missing}}" } },
    ]);
    const to = phone();
    const res = await test.post(`/flows/${f}/enroll`, { to: { phone: to, name: "Ana" }, variables: { coupon: "WELCOME10" } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^run_/),
      flow_id: f,
      contact_id: expect.stringMatching(/^ct_/),
      status: "active",
      key: null,
      created_at: expect.any(String),
    });
    const run = await finished(res.body.id);
    expect(run.status).toBe("completed");
    expect(run.history.map((h) => h.kind)).toEqual(["enrolled", "step", "step", "step", "step", "completed"]);
    const sent = run.history.find((h) => h.detail.type === "send")!;
    const message = await until(
      async () => (await test.get(`/messages/${sent.detail.message_id as string}`)).body,
      (m) => m.status === "read",
    );
    expect(message).toMatchObject({ channel: "whatsapp", to });
    const detail = await query<{ content: { body: string }; mode: string }>("messages.detail", { id: message.id });
    // D17 in flows: run variables first, a missing value renders empty.
    expect(detail.content.body).toBe("Hi Ana, use WELCOME10");
    expect(detail.mode).toBe("test");
    const c = await contact(res.body.contact_id);
    expect(c.tags).toEqual([vip]);
    expect(c.fields).toEqual({ stage: "vip" });
    const events = await until(
      () => contactEvents(ws.id, res.body.contact_id),
      (e) => e.some((x) => x.event === "fluxo.concluido"),
    );
    expect(events.map((e) => e.event)).toEqual(expect.arrayContaining(["contato.criado", "contato.atualizado", "fluxo.concluido"]));
    expect(events.find((e) => e.event === "fluxo.concluido")).toMatchObject({
      mode: "test",
      // D64: a run that reaches its end without the goal completes with reason "end".
      data: { id: res.body.id, flow_id: f, contact: res.body.contact_id, status: "completed", reason: "end" },
    });
  });

  it("refuses an unknown flow, a flow that is not active, and a second active run without re-entry", async () => {
    expectError(await test.post("/flows/flow_nope/enroll", { to: { phone: phone() } }), {
      status: 404,
      type: "not_found",
      param: "flow_id",
    });
    const { flow_id: draft } = await mutation<{ flow_id: string }>("flows.create", {
      definition: { name: "D", steps: [{ type: "exit" }] },
    });
    expectError(await test.post(`/flows/${draft}/enroll`, { to: { phone: phone() } }), {
      status: 409,
      type: "conflict",
      code: "flow_not_active",
    });
    expectError(await test.post(`/flows/${draft}/enroll`, { to: { contact_id: "ct_nope" } }), {
      status: 404,
      param: "to.contact_id",
      type: "not_found",
    });
    expectError(await test.post(`/flows/${draft}/enroll`, { to: {} }), { status: 400, type: "invalid_request", param: "to" });

    const slow = await flow([{ type: "wait", duration: "PT1H" }, { type: "exit" }]);
    const to = phone();
    expect((await test.post(`/flows/${slow}/enroll`, { to: { phone: to } })).status).toBe(201);
    expectError(await test.post(`/flows/${slow}/enroll`, { to: { phone: to } }), {
      status: 409,
      type: "conflict",
      param: "to",
      code: "already_enrolled",
    });
    // D40: runs belong to the key's mode; a live run is separate from the test one.
    expect((await live.post(`/flows/${slow}/enroll`, { to: { phone: to } })).status).toBe(201);

    const reentry = await flow([{ type: "wait", duration: "PT1H" }], { allow_reentry: true });
    expect((await test.post(`/flows/${reentry}/enroll`, { to: { phone: to } })).status).toBe(201);
    expect((await test.post(`/flows/${reentry}/enroll`, { to: { phone: to } })).status).toBe(201);
  });

  it("makes one run of ten parallel enrollments of one new contact (D18)", async () => {
    const f = await flow([{ type: "wait", duration: "PT1H" }]);
    const to = phone();
    const all = await Promise.all(Array.from({ length: 10 }, () => test.post(`/flows/${f}/enroll`, { to: { phone: to } })));
    expect(all.map((r) => r.status).sort()).toEqual([201, ...Array<number>(9).fill(409)]);
  });

  it("writes each of many parallel enrollments, shared transactions or not: other contacts, and one contact with re-entry", async () => {
    const once = await flow([{ type: "wait", duration: "PT1H" }]);
    const again = await flow([{ type: "wait", duration: "PT1H" }], { allow_reentry: true });
    const to = phone();
    const all = await Promise.all([
      ...Array.from({ length: 10 }, () => test.post(`/flows/${once}/enroll`, { to: { phone: phone() } })),
      ...Array.from({ length: 10 }, () => test.post(`/flows/${again}/enroll`, { to: { phone: to } })),
    ]);
    expect(all.map((r) => r.status)).toEqual(Array<number>(20).fill(201));
    expect(new Set(all.map((r) => r.body.id)).size).toBe(20);
    for (const res of all) expect((await runOf(res.body.id as string)).status).toBe("active");
  });

  it("walks many runs due at once each as if alone: other contacts, and one contact's runs that change it in turn (D14)", async () => {
    // Runs due together advance in shared transactions: each still sees its contact as the
    // runs before it left it, and only a run that changed the contact reports it.
    const many = await flow([
      { type: "tag", add: [vip] },
      { type: "branch", if: { has_tag: vip }, then: [{ type: "set_field", key: "stage", value: "vip" }], else: [{ type: "exit" }] },
      { type: "send", channel: "whatsapp", whatsapp: { body: "Hi {{name}}" } },
    ]);
    const again = await flow(
      [
        { type: "set_field", key: "coupon", value: "TWICE" },
        { type: "tag", add: [nurture], remove: [vip] },
      ],
      { allow_reentry: true },
    );
    const one = phone();
    const all = await Promise.all([
      ...Array.from({ length: 12 }, (_, i) => test.post(`/flows/${many}/enroll`, { to: { phone: phone(), name: `Many ${i}` } })),
      ...Array.from({ length: 6 }, () => test.post(`/flows/${again}/enroll`, { to: { phone: one } })),
    ]);
    expect(all.map((r) => r.status)).toEqual(Array<number>(18).fill(201));
    for (const [i, res] of all.entries()) {
      const run = await finished(res.body.id as string);
      expect(run.status).toBe("completed");
      const c = await contact(res.body.contact_id as string);
      const events = await until(
        () => contactEvents(ws.id, res.body.contact_id as string),
        (e) => e.filter((x) => x.event === "fluxo.concluido").length === (i < 12 ? 1 : 6),
      );
      const updates = events.filter((e) => e.event === "contato.atualizado");
      if (i < 12) {
        expect(run.history.map((h) => h.kind)).toEqual(["enrolled", "step", "step", "step", "step", "completed"]);
        expect(c).toMatchObject({ name: `Many ${i}`, tags: [vip], fields: { stage: "vip" } });
        const sent = run.history.find((h) => h.detail.type === "send")!;
        expect((await test.get(`/messages/${sent.detail.message_id as string}`)).body).toMatchObject({ to: c.phone });
      } else {
        expect(c).toMatchObject({ tags: [nurture], fields: { coupon: "TWICE" } });
      }
      // One change, one contato.atualizado, with the contact as it then was.
      expect(updates).toHaveLength(1);
      expect(updates[0]!.data).toMatchObject({ id: c.id, tags: c.tags, fields: c.fields });
    }
  });

  it("stores each response with its run when many enrollments with their own keys arrive at once (D46)", async () => {
    const f = await flow([{ type: "wait", duration: "PT1H" }]);
    const calls = Array.from({ length: 20 }, (_, i) => ({ key: `enroll-many-${Date.now()}-${i}`, body: { to: { phone: phone() } } }));
    const send = () => Promise.all(calls.map((c) => test.post(`/flows/${f}/enroll`, c.body, { headers: { "Idempotency-Key": c.key } })));
    const first = await send();
    expect(first.map((r) => r.status)).toEqual(Array<number>(20).fill(201));
    expect(new Set(first.map((r) => r.body.id)).size).toBe(20);
    const again = await send();
    again.forEach((r, i) => {
      expect(r.status).toBe(201);
      expect(r.headers.get("idempotent-replayed")).toBe("true");
      expect(r.body).toEqual(first[i]!.body);
    });
  });

  it("is idempotent with Idempotency-Key (D27, D28)", async () => {
    const f = await flow([{ type: "wait", duration: "PT1H" }]);
    const body = { to: { phone: phone() } };
    const headers = { "Idempotency-Key": `enroll-${Date.now()}` };
    const first = await test.post(`/flows/${f}/enroll`, body, { headers });
    const again = await test.post(`/flows/${f}/enroll`, body, { headers });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(first.body.id);
    expectError(await test.post(`/flows/${f}/enroll`, { to: { phone: phone() } }, { headers }), { status: 422, type: "invalid_request" });
  });

  it("skips a send to a contact without the address (D38) or without a live channel, and goes on", async () => {
    const f = await flow([
      { type: "send", channel: "email", email: { subject: "Hi", html: "<p>Hi</p>" } },
      { type: "send", channel: "whatsapp", whatsapp: { body: "Hi" } },
      { type: "tag", add: [nurture] },
    ]);
    const res = await live.post(`/flows/${f}/enroll`, { to: { phone: phone() } });
    const run = await finished(res.body.id);
    expect(run.status).toBe("completed");
    const skipped = run.history.filter((h) => h.kind === "skipped").map((h) => h.detail.reason);
    expect(skipped).toEqual(["The contact has no e-mail address.", expect.stringMatching(/No whatsapp channel is connected/)]);
    expect((await contact(res.body.contact_id)).tags).toEqual([nurture]);
  });

  it("skips a send to a contact who opted out of its channel (D38), before looking for a channel, and goes on", async () => {
    const f = await flow([
      { type: "send", channel: "whatsapp", whatsapp: { body: "Hi" } },
      { type: "tag", add: [nurture] },
    ]);
    const created = await live.post("/contacts", { phone: phone(), opt_out_whatsapp: true });
    expect(created.status).toBe(200);
    const res = await live.post(`/flows/${f}/enroll`, { to: { contact_id: created.body.id } });
    const run = await finished(res.body.id);
    expect(run.status).toBe("completed");
    expect(run.history.filter((h) => h.kind === "skipped").map((h) => h.detail)).toEqual([
      {
        type: "send",
        channel: "whatsapp",
        reason: "The contact opted out of whatsapp messages.",
        code: "recipient_opted_out",
        skip: "opted_out", // D81
      },
    ]);
    expect((await contact(created.body.id)).tags).toEqual([nurture]);
  });
});

describe("unenroll (D19)", () => {
  it("stops the run before its due step, with the reason in the run and in fluxo.parado", async () => {
    const f = await flow([
      { type: "wait", duration: "PT2S" },
      { type: "tag", add: [vip] },
    ]);
    const to = phone();
    const enrolled = await test.post(`/flows/${f}/enroll`, { to: { phone: to } });
    await until(
      () => runOf(enrolled.body.id),
      (r) => r.history.some((h) => h.kind === "waiting"),
    );
    const res = await test.post(`/flows/${f}/unenroll`, { to: { phone: to }, reason: "bought already" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      unenrolled: 1,
      contact_id: enrolled.body.contact_id,
      flow_id: f,
      runs: [{ ...enrolled.body, status: "stopped", reason: "bought already" }],
    });
    await new Promise((r) => setTimeout(r, 3_000));
    const run = await runOf(enrolled.body.id);
    expect(run).toMatchObject({ status: "stopped", reason: "bought already" });
    expect((await contact(enrolled.body.contact_id)).tags).toEqual([]);
    const events = await contactEvents(ws.id, enrolled.body.contact_id);
    expect(events.find((e) => e.event === "fluxo.parado")!.data).toEqual({
      id: enrolled.body.id,
      flow_id: f,
      contact: enrolled.body.contact_id,
      status: "stopped",
      reason: "bought already",
    });
    const again = await test.post(`/flows/${f}/unenroll`, { to: { phone: to } });
    expect(again.body).toEqual({ unenrolled: 0, contact_id: enrolled.body.contact_id, flow_id: f, runs: [] });
  });

  it("answers each stopped run as enroll answered it, with its key (D66), whether stopped by key, by contact or with all", async () => {
    const f = await flow([{ type: "wait", duration: "PT1H" }]);
    const to = phone();
    const a = await test.post(`/flows/${f}/enroll`, { to: { phone: to }, key: "inv_a" });
    const b = await test.post(`/flows/${f}/enroll`, { to: { phone: to }, key: "inv_b" });
    const c = await test.post(`/flows/${f}/enroll`, { to: { phone: to } });
    expect([a.status, b.status, c.status]).toEqual([201, 201, 201]);
    expect(a.body.key).toBe("inv_a");
    const stopped = (run: Record<string, unknown>, reason: string | null) => ({ ...run, status: "stopped", reason });
    const byKey = await test.post(`/flows/${f}/unenroll`, { key: "inv_a", reason: "paid" });
    expect(byKey.status).toBe(200);
    expect(byKey.body.runs).toEqual([stopped(a.body, "paid")]);
    const byContact = await test.post(`/flows/${f}/unenroll`, { to: { phone: to }, key: "inv_b" });
    expect(byContact.body.runs).toEqual([stopped(b.body, null)]);
    const all = await test.post("/flows/all/unenroll", { to: { phone: to } });
    expect(all.body.runs).toEqual([stopped(c.body, null)]);
    expect(all.body.runs[0]).toHaveProperty("key", null);
  });

  it("stops every journey with all, only in the key's mode (D40)", async () => {
    const a = await flow([{ type: "wait", duration: "PT1H" }]);
    const b = await flow([{ type: "wait", duration: "PT1H" }]);
    const to = phone();
    await test.post(`/flows/${a}/enroll`, { to: { phone: to } });
    await test.post(`/flows/${b}/enroll`, { to: { phone: to } });
    const liveRun = await live.post(`/flows/${a}/enroll`, { to: { phone: to } });
    const res = await test.post("/flows/all/unenroll", { to: { phone: to } });
    expect(res.body).toMatchObject({ unenrolled: 2, flow_id: "all" });
    expect(res.body.runs.map((r: { reason: unknown }) => r.reason)).toEqual([null, null]);
    expect((await runOf(liveRun.body.id)).status).toBe("active");
  });

  it("answers 404 for an unknown flow or a recipient that matches no contact, and creates nothing", async () => {
    expectError(await test.post("/flows/flow_nope/unenroll", { to: { phone: phone() } }), {
      status: 404,
      param: "flow_id",
      type: "not_found",
    });
    const f = await flow([{ type: "exit" }]);
    const to = phone();
    expectError(await test.post(`/flows/${f}/unenroll`, { to: { phone: to } }), { status: 404, param: "to.phone", type: "not_found" });
    expectError(await test.post(`/flows/${f}/unenroll`, { to: { email: `nobody${Date.now()}@example.com` } }), {
      status: 404,
      param: "to.email",
      type: "not_found",
    });
    expectError(await test.post(`/flows/${f}/unenroll`, { to: { contact_id: "ct_nope" } }), {
      status: 404,
      param: "to.contact_id",
      type: "not_found",
    });
    expectError(await test.post(`/flows/${f}/unenroll`, { to: { phone: to, email: "a@example.com" } }), {
      status: 400,
      param: "to",
      type: "invalid_request",
    });
    expect((await test.get(`/contacts?phone=${encodeURIComponent(to)}`)).status).toBe(404);
  });
});

describe("flow lifecycle and versions (D6, D37)", () => {
  it("refuses an invalid definition with the path of the fault", async () => {
    const bad = async (steps: unknown[]) => mutation("flows.create", { definition: { name: "Bad", steps } });
    await expect(
      bad([
        { type: "tag", add: [vip] },
        { type: "branch", if: { has_tag: "tag_nope" } },
      ]),
    ).rejects.toThrow(/"param":"steps.1.if.has_tag"/);
    await expect(bad([{ type: "wait", duration: "an hour" }])).rejects.toThrow(/"param":"steps.0.duration"/);
    await expect(bad([{ type: "branch", if: { has_tag: vip }, then: [{ type: "send", channel: "email", email: {} }] }])).rejects.toThrow(
      /"param":"steps.0.then.0.email.html"/,
    );
    await expect(bad([{ type: "set_field", key: "nope", value: 1 }])).rejects.toThrow(/"param":"steps.0.key"/);
    await expect(bad([{ type: "jump" }])).rejects.toThrow(/"param":"steps.0.type"/);
    await expect(bad([])).rejects.toThrow(/"param":"steps"/);
  });

  it("keeps a run on its version when the active flow is edited", async () => {
    const f = await flow([
      { type: "wait", duration: "PT2S" },
      { type: "tag", add: [vip] },
    ]);
    const first = await test.post(`/flows/${f}/enroll`, { to: { phone: phone() } });
    await mutation("flows.update", {
      flow_id: f,
      definition: {
        name: "Edited",
        status: "active",
        steps: [
          { type: "wait", duration: "PT2S" },
          { type: "tag", add: [nurture] },
        ],
      },
    });
    const second = await test.post(`/flows/${f}/enroll`, { to: { phone: phone() } });
    const [a, b] = await Promise.all([finished(first.body.id), finished(second.body.id)]);
    expect([a.version, b.version]).toEqual([1, 2]);
    expect((await contact(first.body.contact_id)).tags).toEqual([vip]);
    expect((await contact(second.body.contact_id)).tags).toEqual([nurture]);
    const got = await query<{ version: number; definition: { name: string } }>("flows.get", { flow_id: f });
    expect(got).toMatchObject({ version: 2, definition: { name: "Edited" } });
  });

  it("saves an edit and its status move together: a move the lifecycle refuses (D6) saves nothing", async () => {
    const f = await flow([{ type: "tag", add: [vip] }]);
    const edit = (status: string) =>
      mutation("flows.update", {
        flow_id: f,
        definition: { name: `Moved to ${status}`, status, steps: [{ type: "tag", add: [nurture] }] },
      });
    await expect(edit("draft")).rejects.toThrow(/"code":"invalid_flow_status"/);
    expect(await query("flows.get", { flow_id: f })).toMatchObject({
      version: 1,
      definition: { name: expect.stringMatching(/^Flow /), status: "active", steps: [{ type: "tag", add: [vip] }] },
    });
    await edit("paused");
    expect(await query("flows.get", { flow_id: f })).toMatchObject({
      version: 2,
      definition: { name: "Moved to paused", status: "paused", steps: [{ type: "tag", add: [nurture] }] },
    });
  });

  it("holds runs while paused, continues them on resume, and archiving stops them", async () => {
    // The run waits an hour in its first step, so the pause surely lands during the wait,
    // however slow the machine; then the next step is made due at once (the run's due time and
    // its job), and the pipeline must park it (its job moved to PARKED) instead of running it.
    // (A 4 s wait raced the pause on a loaded embedded store: the run had finished before the
    // pause. And the pause waits for the run to be waiting: paused before its first step ran,
    // the run would begin its hour's wait on resume.)
    const f = await flow([
      { type: "wait", duration: "PT1H" },
      { type: "tag", add: [vip] },
    ]);
    const res = await test.post(`/flows/${f}/enroll`, { to: { phone: phone() } });
    await until(
      () => runOf(res.body.id),
      (r) => r.history.some((h) => h.kind === "waiting"),
    );
    await mutation("flows.setStatus", { flow_id: f, status: "paused" });
    expectError(await test.post(`/flows/${f}/enroll`, { to: { phone: phone() } }), { status: 409, type: "conflict" });
    await sql(`UPDATE flow_runs SET next_step_at = now() WHERE workspace_id = $1 AND id = $2`, [ws.id, res.body.id]);
    await sql(`UPDATE jobs SET run_at = now() WHERE workspace_id = $1 AND kind = 'flow.step' AND subject_id = $2`, [ws.id, res.body.id]);
    await until(
      () => sql(`SELECT run_at FROM jobs WHERE workspace_id = $1 AND kind = 'flow.step' AND subject_id = $2`, [ws.id, res.body.id]),
      (jobs) => jobs.length === 1 && new Date(jobs[0]!.run_at as string).getUTCFullYear() === 9999,
    );
    expect((await runOf(res.body.id)).status).toBe("active");
    expect((await contact(res.body.contact_id)).tags).toEqual([]);
    await mutation("flows.setStatus", { flow_id: f, status: "active" });
    expect((await finished(res.body.id)).status).toBe("completed");
    expect((await contact(res.body.contact_id)).tags).toEqual([vip]);

    const waiting = await test.post(`/flows/${f}/enroll`, { to: { phone: phone() } });
    await mutation("flows.setStatus", { flow_id: f, status: "archived" });
    expect(await runOf(waiting.body.id)).toMatchObject({ status: "stopped", reason: "flow archived" });
    await expect(mutation("flows.setStatus", { flow_id: f, status: "active" })).rejects.toThrow(/invalid_flow_status/);
    expect((await test.get("/flows?limit=1000")).body.map((x: { id: string }) => x.id)).not.toContain(f);
  });

  // A pause that commits while the engine waits on a run it is about to walk (here: on a lock
  // this test holds) parks the run's step: the engine reads the flow's status after it holds
  // the run, not as the snapshot of the statement that waited (D6). PostgreSQL only: the
  // embedded store has one connection, so nothing outside the server can hold a row of it.
  // On Citus the run's row is locked on its worker, and the engine's statement waits there:
  // the cluster's view of lock waits names it (D87).
  it.runIf(inject("api").engine === "postgres")("parks a step whose run was locked when the pause committed", async () => {
    const f = await flow([
      { type: "wait", duration: "PT1H" },
      { type: "tag", add: [vip] },
    ]);
    const res = await test.post(`/flows/${f}/enroll`, { to: { phone: phone() } });
    const run = res.body.id as string;
    await until(
      () => sql(`SELECT next_step_at FROM flow_runs WHERE workspace_id = $1 AND id = $2`, [ws.id, run]),
      (rows) => rows[0]?.next_step_at != null && new Date(rows[0].next_step_at as string).getTime() > Date.now() + 30 * 60_000,
    );
    await sql(`UPDATE flow_runs SET next_step_at = now() WHERE workspace_id = $1 AND id = $2`, [ws.id, run]);
    const holder = new pg.Client({ connectionString: inject("api").env.DATABASE_URL });
    await holder.connect();
    try {
      await holder.query("BEGIN");
      await holder.query(`SELECT 1 FROM flow_runs WHERE workspace_id = $1 AND id = $2 FOR UPDATE`, [ws.id, run]);
      await sql(`UPDATE jobs SET run_at = now() WHERE workspace_id = $1 AND kind = 'flow.step' AND subject_id = $2`, [ws.id, run]);
      // The engine has claimed the step and waits on the run.
      await until(
        () =>
          sql(
            process.env.SVC_CITUS === "1"
              ? `SELECT 1 FROM citus_lock_waits WHERE blocked_statement LIKE '%FROM flow_runs r%FOR UPDATE%'`
              : `SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%FROM flow_runs r%FOR UPDATE%'`,
          ),
        (rows) => rows.length > 0,
      );
      await mutation("flows.setStatus", { flow_id: f, status: "paused" });
      await holder.query("COMMIT");
    } finally {
      await holder.end();
    }
    await until(
      () => sql(`SELECT run_at FROM jobs WHERE workspace_id = $1 AND kind = 'flow.step' AND subject_id = $2`, [ws.id, run]),
      (jobs) => jobs.length === 1 && new Date(jobs[0]!.run_at as string).getUTCFullYear() === 9999,
    );
    expect(await runOf(run)).toMatchObject({ status: "active", position: [1] });
    expect((await contact(res.body.contact_id)).tags).toEqual([]);
  });

  it("completes a run whose last step is a wait only when the wait is over", async () => {
    const f = await flow([{ type: "wait", duration: "PT1S" }]);
    const res = await test.post(`/flows/${f}/enroll`, { to: { phone: phone() } });
    const started = Date.now();
    const run = await finished(res.body.id);
    expect(run.status).toBe("completed");
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });
});
