import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api, fixtures } from "../support/client.ts";
import { dashboardMutation, dashboardQuery, signIn } from "../support/dashboard.ts";
import { queryDatabase } from "../support/database.ts";
import {
  inboundTextWebhook,
  postWebhook,
  startFakeWhatsApp,
  type FakeWhatsApp,
  type FakeWhatsAppRequest,
} from "../support/fake-whatsapp.ts";
import { poller } from "../support/until.ts";
import { openWhatsAppWindow } from "../support/whatsapp-window.ts";

// Flow send steps with WhatsApp templates (D42) and the 24-hour window (D43) over real HTTP:
// a step's template is checked when the flow is saved, with D42's errors pointing into the
// step; a step with free-form content and `"fallback": "template"` sends the free-form
// content inside the contact's window and the template outside it; free-form content alone
// outside the window is skipped with `whatsapp_window_closed` (D38). Live runs reach a local
// Cloud API speaking Meta's JSON. The run engine's clock is the outbox: a 25-hour wait is a
// job due in 25 hours, so the test moves that job, and the contact's window, 25 hours back.
const ws = fixtures().flowTemplates!;
const { baseUrl, env } = inject("api");
const live = api(ws.keys.live);
const test = api(ws.keys.test);
const phoneNumberId = String(100_000_000 + Math.floor(Math.random() * 899_999_999));
const wabaId = String(200_000_000 + Math.floor(Math.random() * 799_999_999));
const appSecret = `secret-${randomUUID()}`;
let fake: FakeWhatsApp;
let channelId = "";

let seq = 0;
const phone = () => `+55119${String(50_000_000 + ((Date.now() + seq++ * 7919) % 49_999_999)).slice(-8)}`;
const until = poller(20_000);

type Run = { id: string; status: string; history: { kind: string; detail: Record<string, unknown> }[] };
const mutation = <T>(path: string, input: unknown) => dashboardMutation<T>(ws.id, path, input);
const runOf = (id: string) => dashboardQuery<Run>(ws.id, "flows.run", { run_id: id });

const SHIPPED = { name: "order_shipped", language: "en_US", parameters: { "1": "{{name}}", "2": "{{carrier}}" } };
/** D43: free-form content inside the window, the template outside it. */
const FALLBACK_STEP = {
  type: "send",
  channel: "whatsapp",
  whatsapp: { body: "Hi {{name}}, any questions?", template: SHIPPED, fallback: "template" },
};

async function flow(steps: unknown[]): Promise<string> {
  const { flow_id } = await mutation<{ flow_id: string }>("flows.create", {
    definition: { name: `Templates ${seq++}`, status: "active", steps },
  });
  return flow_id;
}

/** The dashboard's error for a refused save: its tRPC data carries the spec's type, code and param. */
async function refused(steps: unknown[]): Promise<{ status: number; type: string; code: string; param: string }> {
  const res = await fetch(`${baseUrl}/api/trpc/flows.create`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-svc-workspace": ws.id, cookie: await cookie() },
    body: JSON.stringify({ definition: { name: "Refused", steps } }),
  });
  const body = (await res.json()) as { error: { data: { httpStatus: number; type: string; code: string; param: string } } };
  const { httpStatus, type, code, param } = body.error.data;
  return { status: httpStatus, type, code, param };
}
let session: Promise<string> | undefined;
const cookie = () => (session ??= signIn(baseUrl));

const sentTo = (to: string) => fake.requests.filter((r) => r.method === "POST" && r.phoneNumberId && r.body?.to === to.replace(/^\+/, ""));

beforeAll(async () => {
  fake = await startFakeWhatsApp();
  fake.templates.set(wabaId, [
    {
      name: "order_shipped",
      language: "en_US",
      status: "APPROVED",
      category: "UTILITY",
      components: [{ type: "BODY", text: "Hi {{1}}, your order shipped with {{2}}." }],
    },
    { name: "promo", language: "en_US", status: "PENDING", category: "MARKETING", components: [{ type: "BODY", text: "Sale!" }] },
  ]);
  const connected = await mutation<{ channel_id: string }>("channels.connect", {
    type: "whatsapp",
    phone_number_id: phoneNumberId,
    waba_id: wabaId,
    access_token: "token-1",
    app_secret: appSecret,
    verify_token: "verify-1",
    api_base_url: fake.url,
  });
  channelId = connected.channel_id;
});

afterAll(async () => {
  await fake?.close();
});

describe("saving a flow whose send step has a template (D42)", () => {
  it("refuses each D42 fault before saving, with the param inside the step", async () => {
    const send = (whatsapp: unknown) => ({ type: "send", channel: "whatsapp", whatsapp });
    const wait = { type: "wait", duration: "PT1H" };
    expect(await refused([wait, send({ template: { ...SHIPPED, name: "nope" } })])).toEqual({
      status: 400,
      type: "invalid_request",
      code: "template_not_found",
      param: "steps.1.whatsapp.template.name",
    });
    expect(await refused([wait, send({ template: { ...SHIPPED, language: "pt_BR" } })])).toMatchObject({
      code: "template_not_found",
      param: "steps.1.whatsapp.template.name",
    });
    expect(
      await refused([{ type: "branch", if: { opted_out: "email" }, then: [send({ template: { name: "promo", language: "en_US" } })] }]),
    ).toEqual({ status: 409, type: "conflict", code: "template_not_approved", param: "steps.0.then.0.whatsapp.template.name" });
    expect(await refused([send({ template: { ...SHIPPED, parameters: { "1": "Ana" } } })])).toEqual({
      status: 400,
      type: "invalid_request",
      code: "parameter_missing",
      param: "steps.0.whatsapp.template.parameters.2",
    });
    expect(await refused([send({ template: { ...SHIPPED, parameters: { ...SHIPPED.parameters, coupon: "X" } } })])).toEqual({
      status: 400,
      type: "invalid_request",
      code: "unknown_parameter",
      param: "steps.0.whatsapp.template.parameters.coupon",
    });
    // The template checked is the one of the channel that would send: another channel's id is refused first.
    expect(await refused([{ type: "send", channel: "whatsapp", channel_id: "ch_nope", whatsapp: { template: SHIPPED } }])).toMatchObject({
      code: "unknown_channel",
      param: "steps.0.channel_id",
    });
    // Free-form content and a template together need the fallback; the fallback needs both.
    expect(await refused([send({ body: "Hi", template: SHIPPED })])).toMatchObject({ status: 400, param: "steps.0.whatsapp.template" });
    expect(await refused([send({ body: "Hi", fallback: "template" })])).toMatchObject({ status: 400, param: "steps.0.whatsapp.fallback" });
    expect(await refused([send({ template: SHIPPED, fallback: "template" })])).toMatchObject({
      status: 400,
      param: "steps.0.whatsapp.fallback",
    });
    expect(await refused([send({ body: "Hi", template: SHIPPED, fallback: "always" })])).toMatchObject({
      status: 400,
      param: "steps.0.whatsapp.fallback",
    });
  });

  it("checks an edited flow the same way, and saves a valid one", async () => {
    const f = await flow([FALLBACK_STEP, { type: "send", channel: "whatsapp", channel_id: channelId, whatsapp: { template: SHIPPED } }]);
    await expect(
      mutation("flows.update", {
        flow_id: f,
        definition: {
          name: "Edited",
          steps: [
            { type: "wait", duration: "PT1H" },
            { ...FALLBACK_STEP, whatsapp: { ...FALLBACK_STEP.whatsapp, template: { ...SHIPPED, name: "promo" } } },
          ],
        },
      }),
    ).rejects.toThrow(/"param":"steps.1.whatsapp.template.name"/);
    const got = await dashboardQuery<{ definition: { steps: unknown[] } }>(ws.id, "flows.get", { flow_id: f });
    expect(got.definition.steps[0]).toEqual({ ...FALLBACK_STEP, id: expect.stringMatching(/^st_/) }); // D70: ids are assigned
  });
});

describe("sending from a flow around the 24-hour window (D43)", () => {
  it("sends free-form inside the window, the template after a 25-hour wait, and skips free-form only content", async () => {
    const f = await flow([
      FALLBACK_STEP,
      { type: "wait", duration: "PT25H" },
      FALLBACK_STEP,
      { type: "send", channel: "whatsapp", whatsapp: { body: "Free-form only" } },
      { type: "exit" },
    ]);
    const to = phone();
    await openWhatsAppWindow(baseUrl, { phoneNumberId, appSecret }, to);
    const contact = await until(
      async () => (await live.get(`/contacts?phone=${encodeURIComponent(to)}`)).body,
      (c) => typeof c?.whatsapp_window_expires_at === "string",
    );
    const enrolled = await live.post(`/flows/${f}/enroll`, { to: { phone: to }, variables: { name: "Ana", carrier: "DHL" } });
    expect(enrolled.status).toBe(201);
    expect(enrolled.body.contact_id).toBe(contact.id);

    // Inside the window: the free-form content.
    const waiting = await until(
      () => runOf(enrolled.body.id),
      (r) => r.history.some((h) => h.kind === "waiting"),
    );
    expect(waiting.history.find((h) => h.detail.type === "send")).toMatchObject({ kind: "step" });
    const [text] = await until(
      async () => sentTo(to),
      (r) => r.length === 1,
    );
    expect(text!.body).toMatchObject({ type: "text", text: { body: "Hi Ana, any questions?" } });

    // 25 hours on: the contact's window (opened 24 hours before it closes) closed an hour ago,
    // and the wait's job is due.
    await queryDatabase(
      env,
      // In UTC (timestamp - interval is immutable): Citus refuses a time-zone-dependent
      // function over a column in an UPDATE, and this file runs there too (D87).
      `UPDATE contacts SET whatsapp_window_expires_at = ((whatsapp_window_expires_at AT TIME ZONE 'UTC') - interval '25 hours') AT TIME ZONE 'UTC' WHERE id = $1`,
      [contact.id],
    );
    await queryDatabase(env, `UPDATE jobs SET run_at = now() WHERE kind = 'flow.step' AND subject_id = $1`, [enrolled.body.id]);
    const run = await until(
      () => runOf(enrolled.body.id),
      (r) => r.status !== "active",
    );
    expect(run.status).toBe("completed");
    const sends = run.history.filter((h) => h.detail.type === "send");
    expect(sends.map((h) => h.kind)).toEqual(["step", "step", "skipped"]);
    expect(sends[2]!.detail).toMatchObject({
      channel: "whatsapp",
      code: "whatsapp_window_closed",
      reason: expect.stringMatching(/window closed/),
    });

    // Outside the window: the template, its parameters filled from the run's variables.
    const all = await until(
      async () => sentTo(to),
      (r) => r.length === 2,
    );
    const template = all[1] as FakeWhatsAppRequest;
    expect(template.body).toMatchObject({
      type: "template",
      template: {
        name: "order_shipped",
        language: { code: "en_US" },
        components: [
          {
            type: "body",
            parameters: [
              { type: "text", text: "Ana" },
              { type: "text", text: "DHL" },
            ],
          },
        ],
      },
    });
    const message = await until(
      async () => (await live.get(`/messages/${sends[1]!.detail.message_id as string}`)).body,
      (m) => m.status === "sent" || m.status === "delivered",
    );
    expect(message).toMatchObject({ channel: "whatsapp", direction: "outbound", error_code: null });
    await new Promise((r) => setTimeout(r, 300));
    expect(sentTo(to)).toHaveLength(2);
  });

  it("test runs: every window is open but the reserved recipient's, whose run falls back or skips", async () => {
    const f = await flow([FALLBACK_STEP, { type: "send", channel: "whatsapp", whatsapp: { body: "Free-form only" } }]);
    const outcome = async (to: string) => {
      const res = await test.post(`/flows/${f}/enroll`, { to: { phone: to }, variables: { name: "Bia", carrier: "UPS" } });
      expect(res.status).toBe(201);
      const run = await until(
        () => runOf(res.body.id),
        (r) => r.status !== "active",
      );
      const sends = run.history.filter((h) => h.detail.type === "send");
      const first = await dashboardQuery<{ content: Record<string, unknown> }>(ws.id, "messages.detail", {
        id: sends[0]!.detail.message_id,
      });
      return { content: first.content, second: sends[1]! };
    };
    const open = await outcome(phone());
    expect(open.content).toEqual({ body: "Hi Bia, any questions?" });
    expect(open.second.kind).toBe("step");
    const closed = await outcome("+15550100004");
    expect(closed.content).toMatchObject({ template: { name: "order_shipped" }, body: "Hi Bia, your order shipped with UPS." });
    expect(closed.second).toMatchObject({ kind: "skipped", detail: { code: "whatsapp_window_closed" } });
  });
});

describe("a live run that waits for the contact's reply (D63, D44)", () => {
  it("wakes on the inbound WhatsApp message after its send, with {{wait.text}}, and only on a reply to this run's contact", async () => {
    const to = phone();
    await openWhatsAppWindow(baseUrl, { phoneNumberId, appSecret }, to);
    const f = await flow([
      { type: "send", channel: "whatsapp", whatsapp: { body: "Reply YES to confirm your booking" } },
      {
        type: "wait_for",
        message: "replied",
        timeout: "P1D",
        on_event: [{ type: "send", channel: "whatsapp", whatsapp: { body: "You said: {{wait.text}}" } }],
      },
    ]);
    const res = await live.post(`/flows/${f}/enroll`, { to: { phone: to } });
    expect(res.status).toBe(201);
    await until(
      () => runOf(res.body.id),
      (r) => r.history.some((h) => h.kind === "waiting" && h.detail.for === "replied"),
    );
    // Another contact's message wakes nothing.
    await postWebhook(`${baseUrl}/api/providers/whatsapp`, inboundTextWebhook(phoneNumberId, phone().slice(1), "YES"), appSecret);
    await new Promise((r) => setTimeout(r, 1_000));
    expect((await runOf(res.body.id)).status).toBe("active");
    const reply = await postWebhook(`${baseUrl}/api/providers/whatsapp`, inboundTextWebhook(phoneNumberId, to.slice(1), "YES"), appSecret);
    expect(reply.status).toBe(200);
    const done = await until(
      () => runOf(res.body.id),
      (r) => r.status !== "active",
    );
    expect(done.history.find((h) => h.kind === "woke")!.detail).toMatchObject({ by: "message", status: "replied" });
    await until(
      () => sentTo(to).map((r) => (r.body as { text?: { body?: string } }).text?.body),
      (bodies) => bodies.includes("You said: YES"),
    );
  });
});
