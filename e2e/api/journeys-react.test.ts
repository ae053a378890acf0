import { describe, expect, inject, it } from "vitest";
import { api, expectError, fixtures } from "../support/client.ts";
import { queryDatabase } from "../support/database.ts";
import { dashboardMutation } from "../support/dashboard.ts";
import { contactEvents } from "../support/events.ts";
import { poller } from "../support/until.ts";

// Journeys that react (issue "Journeys that react": D61-D64, D66, D81, D82, D84) over real
// HTTP on both engines: events recorded through POST /events, flows made through the
// dashboard's API, runs read through GET /runs/{id}, and the inline pipeline walking them.
const ws = fixtures().reactive!;
const test = api(ws.keys.test);
const live = api(ws.keys.live);
const until = poller(20_000);
const query = (sql: string, params: unknown[] = []) => queryDatabase(inject("api").env, sql, params);

let seq = 0;
const phone = () => `+55119${String(60_000_000 + (Date.now() % 1_000_000) * 10 + seq++).slice(-8)}`;

type Entry = { at: string; step: string | null; kind: string; [k: string]: unknown };
type Run = { id: string; status: string; key: string | null; converted_at: string | null; current_step: unknown; history: Entry[] };

async function flow(definition: Record<string, unknown>): Promise<string> {
  const { flow_id } = await dashboardMutation<{ flow_id: string }>(ws.id, "flows.create", {
    definition: { name: `Reactive ${seq++}`, status: "active", ...definition },
  });
  return flow_id;
}

const createFlow = (definition: Record<string, unknown>) =>
  dashboardMutation(ws.id, "flows.create", { definition: { name: "Invalid", status: "active", ...definition } }).then(
    () => null,
    (err: Error) => JSON.parse(err.message.slice(err.message.indexOf("{"))) as { data?: { param?: string; code?: string } },
  );

const event = (body: Record<string, unknown>, key = test) => key.post("/events", body);
const runOf = async (id: string) => (await test.get<Run>(`/runs/${id}`)).body;
const runsOf = async (flowId: string, query = "") => (await test.get<Run[]>(`/flows/${flowId}/runs${query}`)).body;
const ended = (id: string) =>
  until(
    () => runOf(id),
    (r) => r.status !== "active",
  );
const waitingFor = (id: string, what: string) =>
  until(
    () => runOf(id),
    (r) => r.history.some((h) => h.kind === "waiting" && h.for === what),
  );
const kinds = (run: Run) => run.history.map((h) => h.kind);

describe("POST /events and GET /events (D61, D84)", () => {
  it("records an event for a new contact, answers 202 with the Event, and lists it newest first with filters", async () => {
    const to = phone();
    const res = await event({ name: "order_paid", to: { phone: to }, properties: { order_id: "ord_1", total: 120 } });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^cev_/),
      name: "order_paid",
      contact_id: expect.stringMatching(/^ct_/),
      properties: { order_id: "ord_1", total: 120 },
      timestamp: expect.any(String),
      created_at: expect.any(String),
      triggered: [],
    });
    const second = await event({ name: "cart_viewed", to: { contact_id: res.body.contact_id }, timestamp: "2026-01-01T10:00:00Z" });
    expect(second.body.timestamp).toBe("2026-01-01T10:00:00.000Z");
    const list = await test.get(`/events?contact_id=${res.body.contact_id}`);
    expect(list.status).toBe(200);
    expect(list.body.map((e: { id: string }) => e.id)).toEqual([second.body.id, res.body.id]);
    const named = await test.get(`/events?contact_id=${res.body.contact_id}&name=order_paid&limit=1`);
    expect(named.body.map((e: { id: string }) => e.id)).toEqual([res.body.id]);
    // D40: events belong to the key's mode.
    expect((await live.get(`/events?contact_id=${res.body.contact_id}`)).body).toEqual([]);
    const paged = await test.get(`/events?contact_id=${res.body.contact_id}&limit=1`);
    expect(paged.headers.get("link")).toContain(`after=${second.body.id}`);
    expect(paged.headers.get("link")).toContain(`contact_id=${res.body.contact_id}`);
  });

  it("answers the first event for a client id seen within 24 hours, with Idempotent-Replayed", async () => {
    const to = phone();
    const first = await event({ name: "signup", to: { phone: to }, id: `client-${to}` });
    const again = await event({ name: "signup", to: { phone: to }, id: `client-${to}`, properties: { other: true } });
    expect(again.status).toBe(202);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
    // The same id in the other mode is another event.
    const inLive = await event({ name: "signup", to: { phone: to }, id: `client-${to}` }, live);
    expect(inLive.body.id).not.toBe(first.body.id);
    expect((await test.get(`/events?contact_id=${first.body.contact_id}`)).body).toHaveLength(1);
  });

  it("honours Idempotency-Key: the same key and body replay the first answer, another body is 422 (D27, D28)", async () => {
    const to = { phone: phone() };
    const key = { "Idempotency-Key": `ev-${to.phone}` };
    const first = await test.post("/events", { name: "checkout", to, properties: { step: 1 } }, { headers: key });
    expect(first.status).toBe(202);
    const again = await test.post("/events", { name: "checkout", to, properties: { step: 1 } }, { headers: key });
    expect(again.status).toBe(202);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
    expectError(await test.post("/events", { name: "checkout", to, properties: { step: 2 } }, { headers: key }), {
      status: 422,
      type: "invalid_request",
      code: "idempotency_key_reused",
    });
    expect((await test.get(`/events?contact_id=${first.body.contact_id}`)).body).toHaveLength(1);
  });

  it("refuses bad names, properties, timestamps and ids with their param, and needs its scopes", async () => {
    const to = { phone: phone() };
    expectError(await event({ name: "Order Paid", to }), { status: 400, type: "invalid_request", param: "name" });
    expectError(await event({ name: "x".repeat(65), to }), { status: 400, type: "invalid_request", param: "name" });
    expectError(await event({ name: "big", to, properties: { blob: "x".repeat(9000) } }), {
      status: 400,
      type: "invalid_request",
      param: "properties",
    });
    // D84: five levels counting properties itself; arrays are levels too.
    expect((await event({ name: "deep", to, properties: { a: { b: { c: { d: { e: 1 } } } } } })).status).toBe(202);
    expect((await event({ name: "deep", to, properties: { a: [[[{ e: 1 }]]] } })).status).toBe(202);
    expectError(await event({ name: "deep", to, properties: { a: { b: { c: { d: { e: { f: 1 } } } } } } }), {
      status: 400,
      type: "invalid_request",
      param: "properties",
    });
    const ahead = new Date(Date.now() + 10 * 60_000).toISOString();
    expectError(await event({ name: "later", to, timestamp: ahead }), { status: 400, type: "invalid_request", param: "timestamp" });
    expectError(await event({ name: "later", to, timestamp: "yesterday" }), { status: 400, type: "invalid_request", param: "timestamp" });
    expectError(await event({ name: "long", to, id: "i".repeat(129) }), { status: 400, type: "invalid_request", param: "id" });
    expectError(await event({ name: "nobody", to: { contact_id: "ct_nope" } }), { status: 404, type: "not_found", param: "to.contact_id" });
    expectError(await event({ name: "scoped", to }, api(ws.keys.flowsOnly)), { status: 403, type: "forbidden" });
    expectError(await api(ws.keys.flowsOnly).get("/events"), { status: 403, type: "forbidden" });
    expect((await api(ws.keys.eventsReadOnly).get("/events")).status).toBe(200);
  });
});

describe("flow documents with triggers, waits for events and goals (D62-D64, D84)", () => {
  it("refuses each fault with its path", async () => {
    const bad = async (definition: Record<string, unknown>, param: string) => {
      const err = await createFlow(definition);
      expect(err?.data?.param, JSON.stringify(definition)).toBe(param);
    };
    const exit = [{ type: "exit" }];
    await bad({ trigger: { event: "Bad Name" }, steps: exit }, "trigger.event");
    await bad(
      {
        trigger: {
          event: "ok",
          where: {
            any: [
              { property: "a", equals: 1 },
              { property: "b", gt: {} },
            ],
          },
        },
        steps: exit,
      },
      "trigger.where.any.1.gt",
    );
    await bad({ trigger: { event: "ok", where: { property: "a", greater: 3 } }, steps: exit }, "trigger.where.greater");
    await bad(
      { trigger: { event: "ok", where: { all: [{ any: [{ all: [{ any: [{ property: "a", exists: true }] }] }] }] } }, steps: exit },
      "trigger.where.all.0.any.0.all.0.any",
    );
    await bad({ steps: [{ type: "wait_for", timeout: "P1D" }] }, "steps.0.event");
    await bad({ steps: [{ type: "wait_for", event: "paid", message: "read", timeout: "P1D" }] }, "steps.0.event");
    await bad({ steps: [{ type: "wait_for", event: "paid", timeout: "P91D" }] }, "steps.0.timeout");
    await bad({ steps: [{ type: "wait_for", event: "paid", timeout: "P1D", lookback: "P8D" }] }, "steps.0.lookback");
    await bad(
      {
        steps: [
          { type: "wait", duration: "PT1H" },
          { type: "wait_for", event: "paid", timeout: "P1D", on_event: [{ type: "nope" }] },
        ],
      },
      "steps.1.on_event.0.type",
    );
    await bad({ goal: { event: "paid", match: { "a b": "x" } }, steps: exit }, "goal.match.a b");
  });
});

describe("triggers and run keys (D62, D66, D82)", () => {
  it("enrolls on a matching event with its properties as {{event.…}}, keys runs, and says what each event triggered", async () => {
    const f = await flow({
      trigger: {
        event: "cart_abandoned",
        where: {
          all: [
            { property: "total", gte: 100 },
            { property: "items", contains: "shoes" },
          ],
        },
        key: "{{event.cart_id}}",
      },
      steps: [{ type: "send", channel: "whatsapp", whatsapp: { body: "Your {{event.items.0}} for {{event.total}} (cart {{run.key}})" } }],
    });
    const to = phone();
    const first = await event({
      name: "cart_abandoned",
      to: { phone: to },
      properties: { cart_id: "c1", total: 150, items: ["shoes", "hat"] },
    });
    const [run] = await until(
      () => runsOf(f, `?contact_id=${first.body.contact_id}`),
      (r) => r.length === 1,
    );
    expect(run!.key).toBe("c1");
    const done = await ended(run!.id);
    const sent = done.history.find((h) => h.kind === "sent")!;
    expect(done.history[0]).toMatchObject({ kind: "entered", event_id: first.body.id });
    const message = await until(
      async () => (await test.get(`/messages/${sent.message_id as string}`)).body,
      (m) => m.status === "read",
    );
    // A test event starts a test run, which sends in test mode (D40).
    expect(message).toMatchObject({ channel: "whatsapp", to });
    const listed = await until(
      async () => (await test.get(`/events?contact_id=${first.body.contact_id}`)).body,
      (e) => e[0]?.triggered?.length === 1,
    );
    expect(listed[0].triggered).toEqual([{ flow_id: f, run_id: run!.id, key: "c1" }]);

    // Below the condition: no run, nothing triggered.
    const cheap = await event({ name: "cart_abandoned", to: { phone: to }, properties: { cart_id: "c2", total: 10, items: ["shoes"] } });
    // Another key: a second run of the same contact; the same key while it is active: already_enrolled.
    const waitFlow = await flow({
      trigger: { event: "invoice_due", key: "{{event.invoice_id}}" },
      goal: { event: "invoice_paid", match: { invoice_id: "{{run.key}}" } },
      steps: [
        { type: "wait", duration: "PT1H" },
        { type: "send", channel: "whatsapp", whatsapp: { body: "Pay {{run.key}}" } },
      ],
    });
    const a = await event({ name: "invoice_due", to: { phone: to }, properties: { invoice_id: "inv_a" } });
    const b = await event({ name: "invoice_due", to: { phone: to }, properties: { invoice_id: "inv_b" } });
    const again = await event({ name: "invoice_due", to: { phone: to }, properties: { invoice_id: "inv_a" } });
    const runs = await until(
      () => runsOf(waitFlow, `?contact_id=${a.body.contact_id}`),
      (r) => r.length === 2,
    );
    expect(runs.map((r) => r.key).sort()).toEqual(["inv_a", "inv_b"]);
    const triggered = await until(
      async () => (await test.get(`/events?contact_id=${a.body.contact_id}&name=invoice_due`)).body,
      (e) => e.every((x: { triggered: unknown[] }) => x.triggered.length === 1),
    );
    expect(triggered.find((e: { id: string }) => e.id === again.body.id).triggered).toEqual([
      { flow_id: waitFlow, reason: "already_enrolled", key: "inv_a" },
    ]);
    expect(triggered.find((e: { id: string }) => e.id === b.body.id).triggered[0].run_id).toEqual(expect.stringMatching(/^run_/));
    expect(
      (await test.get(`/events?contact_id=${a.body.contact_id}&name=cart_abandoned`)).body.find(
        (e: { id: string }) => e.id === cheap.body.id,
      ).triggered,
    ).toEqual([]);

    // D64 with D66: paying invoice b ends exactly b's reminder, before its send. The run is
    // listed once enrolled; its first step (the wait) runs in the pipeline after that, so the
    // payment comes once it waits (on a loaded machine it came first: the goal then ended the
    // run before its wait, as it should, and the history had no "waiting").
    const runB = runs.find((r) => r.key === "inv_b")!;
    await until(
      () => runOf(runB.id),
      (r) => kinds(r).includes("waiting"),
    );
    const paid = await event({ name: "invoice_paid", to: { phone: to }, properties: { invoice_id: "inv_b" } });
    const endedB = await ended(runB.id);
    expect(endedB.status).toBe("completed");
    expect(endedB.converted_at).toEqual(expect.any(String));
    expect(kinds(endedB)).toEqual(["entered", "waiting", "converted", "ended"]);
    expect(endedB.history.at(-1)).toMatchObject({ kind: "ended", status: "completed", reason: "goal_reached" });
    expect(endedB.history.find((h) => h.kind === "converted")).toMatchObject({ event_id: paid.body.id });
    const runA = await runOf(runs.find((r) => r.key === "inv_a")!.id);
    expect(runA).toMatchObject({
      status: "active",
      converted_at: null,
      // D82: the step it waits in (the wait at steps.0), not the one it goes on to; D70: assigned ids.
      current_step: { id: expect.stringMatching(/^st_/), path: "steps.0" },
    });
    const concluded = await until(
      () => contactEvents(ws.id, a.body.contact_id),
      (e) => e.some((x) => x.event === "fluxo.concluido" && x.data.id === runB.id),
    );
    expect(concluded.find((x) => x.event === "fluxo.concluido" && x.data.id === runB.id)!.data).toMatchObject({ reason: "goal_reached" });

    // Unenroll by key stops only that key's run.
    const stopped = await test.post(`/flows/${waitFlow}/unenroll`, { key: "inv_a" });
    expect(stopped.status).toBe(200);
    expect(stopped.body).toMatchObject({ unenrolled: 1, contact_id: null, runs: [{ id: runA.id, status: "stopped" }] });
    expectError(await test.post(`/flows/${waitFlow}/unenroll`, {}), { status: 400, type: "invalid_request", param: "to" });
  });

  it("answers in POST /events itself every flow the event triggered, with its run or why none started, as GET /events does", async () => {
    const name = `invoice_issued_${seq++}`;
    const keyed = await flow({ trigger: { event: name, key: "{{event.invoice_id}}" }, steps: [{ type: "wait", duration: "PT1H" }] });
    const big = await flow({
      trigger: { event: name, where: { property: "amount", gte: 100 } },
      steps: [{ type: "wait", duration: "PT1H" }],
    });
    const paused = await flow({ trigger: { event: name }, steps: [{ type: "wait", duration: "PT1H" }] });
    await dashboardMutation(ws.id, "flows.setStatus", { flow_id: paused, status: "paused" });
    const [first, second] = [keyed, big].sort();
    const to = { phone: phone() };

    // The answer is final: each matching active flow with the run it started, in flow id order;
    // the runs are readable at once. A paused flow and an unmet `where` are not listed.
    const a = await event({ name, to, properties: { invoice_id: "inv_1", amount: 150 } });
    expect(a.status).toBe(202);
    const runIds = a.body.triggered.map((t: { run_id?: string }) => t.run_id);
    expect(a.body.triggered).toEqual(
      [
        { flow_id: keyed, run_id: expect.stringMatching(/^run_/), key: "inv_1" },
        { flow_id: big, run_id: expect.stringMatching(/^run_/), key: null },
      ].sort((x, y) => (x.flow_id === first ? -1 : y.flow_id === first ? 1 : 0)),
    );
    expect([first, second]).toEqual(a.body.triggered.map((t: { flow_id: string }) => t.flow_id));
    for (const [i, id] of runIds.entries()) {
      expect(await runOf(id)).toMatchObject({ flow_id: a.body.triggered[i].flow_id, contact_id: a.body.contact_id, status: "active" });
    }
    // The same contact again: a new key starts a run, the keyless flow refuses a second.
    const b = await event({ name, to, properties: { invoice_id: "inv_2", amount: 150 } });
    expect(b.body.triggered).toContainEqual({ flow_id: keyed, run_id: expect.stringMatching(/^run_/), key: "inv_2" });
    expect(b.body.triggered).toContainEqual({ flow_id: big, reason: "already_enrolled", key: null });
    const c = await event({ name, to, properties: { invoice_id: "inv_2", amount: 5 } });
    expect(c.body.triggered).toEqual([{ flow_id: keyed, reason: "already_enrolled", key: "inv_2" }]);

    // Events of one contact arriving together: one run per key, every other one says why not.
    const d = await Promise.all(Array.from({ length: 12 }, () => event({ name, to, properties: { invoice_id: "inv_3" } })));
    const outcomes = d.map((r) => r.body.triggered as { run_id?: string; reason?: string; key: string }[]);
    expect(outcomes.every((t) => t.length === 1 && t[0]!.key === "inv_3")).toBe(true);
    expect(outcomes.filter((t) => t[0]!.run_id)).toHaveLength(1);
    expect(outcomes.filter((t) => t[0]!.reason === "already_enrolled")).toHaveLength(11);
    expect((await runsOf(keyed, `?contact_id=${a.body.contact_id}&key=inv_3`)).length).toBe(1);

    // GET /events shows exactly what each answer said.
    const listed = (await test.get(`/events?contact_id=${a.body.contact_id}&name=${name}`)).body as { id: string }[];
    const answered = [a, b, c, ...d].map((r) => r.body);
    expect(listed).toHaveLength(answered.length);
    for (const e of answered) expect(listed.find((l) => l.id === e.id)).toEqual(e);
    // A replay by client id answers the first event, triggers and all, and starts nothing.
    const once = await event({ name, to, id: `issued-${to.phone}`, properties: { invoice_id: "inv_4" } });
    const again = await event({ name, to, id: `issued-${to.phone}`, properties: { invoice_id: "inv_5" } });
    expect(again.body).toEqual(once.body);
    expect(once.body.triggered[0]).toMatchObject({ flow_id: keyed, key: "inv_4", run_id: expect.stringMatching(/^run_/) });
    expect((await runsOf(keyed, `?contact_id=${a.body.contact_id}&key=inv_5`)).length).toBe(0);
  });

  it("enrolls by API with a key: one active run per key, 409 on key for a second", async () => {
    const f = await flow({ steps: [{ type: "wait", duration: "PT1H" }] });
    const to = phone();
    const one = await test.post(`/flows/${f}/enroll`, { to: { phone: to }, key: "k1" });
    expect(one.status).toBe(201);
    expect(one.body.key).toBe("k1");
    expect((await test.post(`/flows/${f}/enroll`, { to: { phone: to }, key: "k2" })).status).toBe(201);
    expectError(await test.post(`/flows/${f}/enroll`, { to: { phone: to }, key: "k1" }), {
      status: 409,
      type: "conflict",
      code: "already_enrolled",
      param: "key",
    });
    expectError(await test.post(`/flows/${f}/enroll`, { to: { phone: to }, key: "k".repeat(129) }), {
      status: 400,
      type: "invalid_request",
      param: "key",
    });
    expect((await runsOf(f, `?key=k2`)).map((r) => r.key)).toEqual(["k2"]);
    expectError(await test.get(`/runs/run_nope`), { status: 404, type: "not_found", param: "run_id" });
    // D40: a live key does not see a test run.
    expect((await live.get(`/runs/${one.body.id}`)).status).toBe(404);
  });
});

describe("wait_for an event (D63, D84)", () => {
  const cartFlow = (lookback?: string, timeout = "P1D") =>
    flow({
      steps: [
        {
          type: "wait_for",
          event: "order_paid",
          match: { order_id: "{{order}}" },
          timeout,
          ...(lookback ? { lookback } : {}),
          on_event: [],
          on_timeout: [{ type: "exit" }],
        },
        { type: "send", channel: "whatsapp", whatsapp: { body: "Thanks for {{wait.order_id}}: {{wait.total}}" } },
      ],
    });

  it("wakes on the matching event only: another order's event leaves it waiting; {{wait.…}} holds the event", async () => {
    const f = await cartFlow();
    const to = phone();
    const run = await test.post(`/flows/${f}/enroll`, { to: { phone: to }, variables: { order: "ord_9" } });
    await waitingFor(run.body.id, "order_paid");
    await event({ name: "order_paid", to: { phone: to }, properties: { order_id: "ord_8", total: 1 } });
    await new Promise((r) => setTimeout(r, 1_500));
    expect((await runOf(run.body.id)).status).toBe("active");
    const paid = await event({ name: "order_paid", to: { phone: to }, properties: { order_id: "ord_9", total: 42 } });
    const started = Date.now();
    const done = await ended(run.body.id);
    // D63: within a second of the event on an idle server (generous on a busy one).
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(kinds(done)).toEqual(["entered", "waiting", "woke", "path", "sent", "ended"]);
    expect(done.history.find((h) => h.kind === "woke")).toMatchObject({ by: "event", event_id: paid.body.id });
    expect(done.history.find((h) => h.kind === "path")).toMatchObject({ path: "on_event", step: "steps.0" });
    const sent = done.history.find((h) => h.kind === "sent")!;
    const detail = await dashboardQueryMessage(sent.message_id as string);
    expect(detail).toBe("Thanks for ord_9: 42");
  });

  it("counts an event recorded just before the wait within its lookback, and not without one", async () => {
    const withLookback = await cartFlow("PT1H");
    const without = await cartFlow();
    const to = phone();
    await event({ name: "order_paid", to: { phone: to }, properties: { order_id: "ord_early", total: 5 } });
    const a = await test.post(`/flows/${withLookback}/enroll`, { to: { phone: to }, variables: { order: "ord_early" } });
    const b = await test.post(`/flows/${without}/enroll`, { to: { phone: to }, variables: { order: "ord_early" } });
    const done = await ended(a.body.id);
    expect(kinds(done)).toEqual(["entered", "woke", "path", "sent", "ended"]);
    const waiting = await waitingFor(b.body.id, "order_paid");
    expect(waiting.status).toBe("active");
  });

  it("holds an event that comes while the flow is paused, and wakes the run as soon as it resumes", async () => {
    const f = await cartFlow();
    const to = phone();
    const run = await test.post(`/flows/${f}/enroll`, { to: { phone: to }, variables: { order: "ord_p" } });
    await waitingFor(run.body.id, "order_paid");
    await dashboardMutation(ws.id, "flows.setStatus", { flow_id: f, status: "paused" });
    await event({ name: "order_paid", to: { phone: to }, properties: { order_id: "ord_p" } });
    await new Promise((r) => setTimeout(r, 1_000));
    expect((await runOf(run.body.id)).status).toBe("active");
    await dashboardMutation(ws.id, "flows.setStatus", { flow_id: f, status: "active" });
    const done = await ended(run.body.id);
    expect(done.history.find((h) => h.kind === "path")).toMatchObject({ path: "on_event" });
  });

  it("takes the timeout path when nothing comes", async () => {
    const f = await cartFlow(undefined, "PT1S");
    const run = await test.post(`/flows/${f}/enroll`, { to: { phone: phone() }, variables: { order: "never" } });
    const done = await ended(run.body.id);
    expect(kinds(done)).toEqual(["entered", "waiting", "woke", "path", "ended"]);
    expect(done.history.find((h) => h.kind === "woke")).toMatchObject({ by: "timeout" });
    expect(done.history.find((h) => h.kind === "path")).toMatchObject({ path: "on_timeout" });
  });

  it("runs exactly one path when the event and the timeout meet", async () => {
    const f = await cartFlow(undefined, "PT2S");
    const runs = await Promise.all(
      Array.from({ length: 12 }, async (_, i) => {
        const to = phone();
        const r = await test.post(`/flows/${f}/enroll`, { to: { phone: to }, variables: { order: `meet_${i}` } });
        return { to, id: r.body.id as string, i };
      }),
    );
    await Promise.all(runs.map((r) => waitingFor(r.id, "order_paid")));
    const waits = await Promise.all(runs.map((r) => runOf(r.id)));
    // Each event is sent at its run's timeout, give or take a few tens of milliseconds.
    await Promise.all(
      runs.map(async (r, n) => {
        const until = Date.parse(waits[n]!.history.find((h) => h.kind === "waiting")!.until as string);
        await new Promise((res) => setTimeout(res, Math.max(0, until - Date.now() + (r.i % 4) * 15 - 20)));
        await event({ name: "order_paid", to: { phone: r.to }, properties: { order_id: `meet_${r.i}` } });
      }),
    );
    const done = await Promise.all(runs.map((r) => ended(r.id)));
    for (const run of done) {
      expect(run.history.filter((h) => h.kind === "path")).toHaveLength(1);
      expect(run.history.filter((h) => h.kind === "woke")).toHaveLength(1);
      expect(run.history.filter((h) => h.kind === "ended")).toHaveLength(1);
      const path = run.history.find((h) => h.kind === "path")!.path;
      expect(run.history.filter((h) => h.kind === "sent")).toHaveLength(path === "on_event" ? 1 : 0);
    }
  });
});

describe("wait_for a message outcome (D63, D84)", () => {
  it("wakes when the run's latest message is delivered, with {{wait.status}}", async () => {
    const f = await flow({
      steps: [
        { type: "send", channel: "whatsapp", whatsapp: { body: "Hello" } },
        {
          type: "wait_for",
          message: "delivered",
          timeout: "P1D",
          on_event: [{ type: "send", channel: "whatsapp", whatsapp: { body: "Status {{wait.status}}" } }],
        },
      ],
    });
    const run = await test.post(`/flows/${f}/enroll`, { to: { phone: phone() } });
    const done = await ended(run.body.id);
    expect(kinds(done)).toEqual(expect.arrayContaining(["woke", "path"]));
    expect(done.history.find((h) => h.kind === "woke")).toMatchObject({ by: "message" });
    expect(done.history.filter((h) => h.kind === "sent")).toHaveLength(2);
    const second = done.history.filter((h) => h.kind === "sent")[1]!;
    expect(await dashboardQueryMessage(second.message_id as string)).toMatch(/^Status (delivered|read)$/);
  });

  it("takes the timeout path at once without an earlier send", async () => {
    const f = await flow({ steps: [{ type: "wait_for", message: "replied", timeout: "P1D", on_timeout: [{ type: "exit" }] }] });
    const run = await test.post(`/flows/${f}/enroll`, { to: { phone: phone() } });
    const done = await ended(run.body.id);
    expect(done.history.find((h) => h.kind === "path")).toMatchObject({ path: "on_timeout" });
  });
});

describe("goals (D64)", () => {
  it("ends a run waiting in a wait when the goal's event comes: its next send never happens", async () => {
    const f = await flow({
      goal: { event: "purchased" },
      steps: [
        { type: "wait", duration: "PT3S" },
        { type: "send", channel: "whatsapp", whatsapp: { body: "Come back" } },
      ],
    });
    const to = phone();
    const run = await test.post(`/flows/${f}/enroll`, { to: { phone: to } });
    await waitingFor(run.body.id, "PT3S");
    await event({ name: "purchased", to: { phone: to } });
    const done = await ended(run.body.id);
    expect(done.history.at(-1)).toMatchObject({ kind: "ended", reason: "goal_reached" });
    await new Promise((r) => setTimeout(r, 3_500));
    expect((await runOf(run.body.id)).history.filter((h) => h.kind === "sent")).toHaveLength(0);
    expect((await test.get(`/messages?contact_id=${run.body.contact_id}`)).body).toEqual([]);
  });

  it("records the conversion and goes on when the goal does not exit; an ordinary end says reason end", async () => {
    const f = await flow({ goal: { event: "purchased", exit: false }, steps: [{ type: "wait", duration: "PT1S" }, { type: "exit" }] });
    const to = phone();
    const run = await test.post(`/flows/${f}/enroll`, { to: { phone: to } });
    await event({ name: "purchased", to: { phone: to } });
    const done = await ended(run.body.id);
    expect(done.converted_at).toEqual(expect.any(String));
    expect(done.history.at(-1)).toMatchObject({ kind: "ended", status: "completed", reason: "end" });
  });
});

async function dashboardQueryMessage(id: string): Promise<string> {
  const { dashboardQuery } = await import("../support/dashboard.ts");
  const m = await dashboardQuery<{ content: { body: string } }>(ws.id, "messages.detail", { id });
  return m.content.body;
}

describe("an event storm (bad input and limits)", () => {
  // Its budget is the embedded store's CPU: a CPU profile of the PGlite server over its life
  // (its start and this test alone) held 133 s, 88 of them inside PGlite (its WebAssembly and
  // its file layer) and 3 in the service's own code; the storm took 96 s to over 120 s at a
  // load of 10-15 on 2 cores. On PostgreSQL it took 9 s at the same load.
  it("1,000 events for one contact: the waiting run keeps one job, and another contact's journey goes on meanwhile", async () => {
    const f = await flow({
      trigger: { event: "storm" },
      steps: [{ type: "wait_for", event: "storm", match: { n: "never" }, timeout: "P1D" }],
    });
    const first = await event({ name: "storm", to: { phone: phone() }, properties: { n: 0 } });
    const [run] = await until(
      () => runsOf(f, `?contact_id=${first.body.contact_id}`),
      (r) => r.length === 1,
    );
    await waitingFor(run!.id, "storm");
    const other = await flow({ steps: [{ type: "wait", duration: "PT1S" }] });
    const journey = await test.post(`/flows/${other}/enroll`, { to: { phone: phone() } });
    const to = { contact_id: first.body.contact_id };
    for (let i = 0; i < 20; i++) {
      const sent = await Promise.all(Array.from({ length: 50 }, (_, j) => event({ name: "storm", to, properties: { n: i * 50 + j + 1 } })));
      expect(sent.every((r) => r.status === 202)).toBe(true);
    }
    expect((await ended(journey.body.id)).status).toBe("completed");
    // Every wake and every trigger job is done with; the run waits on its own job alone.
    const jobs = await until(
      () =>
        query(`SELECT kind, subject_id FROM jobs WHERE subject_id = $1 OR kind = 'contact_event.process' AND workspace_id = $2`, [
          run!.id,
          ws.id,
        ]),
      (rows) => rows.length === 1,
      60_000,
    );
    expect(jobs).toEqual([{ kind: "flow.step", subject_id: run!.id }]);
    expect(await runOf(run!.id)).toMatchObject({ status: "active" });
    const triggered = (await test.get(`/events?contact_id=${first.body.contact_id}&limit=5`)).body;
    expect(
      triggered.every(
        (e: { triggered: unknown[] }) =>
          JSON.stringify(e.triggered) === JSON.stringify([{ flow_id: f, reason: "already_enrolled", key: null }]),
      ),
    ).toBe(true);
  }, 300_000);
});
