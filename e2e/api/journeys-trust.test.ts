import { describe, expect, inject, it } from "vitest";
import { api, expectError, fixtures } from "../support/client.ts";
import { dashboardMutation } from "../support/dashboard.ts";
import { svc, svcJson } from "../support/svc.ts";
import { poller } from "../support/until.ts";
import { splitPath } from "../../server/flows/split-path.ts";

// Journeys people trust (issue 32, part A: D65, D67, D68, D71, D81) over real HTTP on both
// engines: contacts and flows through the API and the dashboard's, the workspace's settings
// through the operator CLI, runs walked by the inline pipeline and read through GET /runs/{id}.
const ws = fixtures().trust!;
const test = api(ws.keys.test);
const until = poller(20_000);
const env = inject("api").env;

let seq = 0;
const phone = () => `+55119${String(70_000_000 + (Date.now() % 1_000_000) * 10 + seq++).slice(-8)}`;

type Entry = { at: string; step: string | null; kind: string; [k: string]: unknown };
type Run = { id: string; status: string; history: Entry[] };

async function flow(definition: Record<string, unknown>): Promise<string> {
  const { flow_id } = await dashboardMutation<{ flow_id: string }>(ws.id, "flows.create", {
    definition: { name: `Trust ${seq++}`, status: "active", ...definition },
  });
  return flow_id;
}

/** A refused flow document's D29 error data (`param`, `code`). */
const refused = (definition: Record<string, unknown>) =>
  dashboardMutation(ws.id, "flows.create", { definition: { name: "Invalid", status: "active", ...definition } }).then(
    () => null,
    (err: Error) => (JSON.parse(err.message.slice(err.message.indexOf("{"))) as { data?: { param?: string; code?: string } }).data,
  );

const contact = async (body: Record<string, unknown>) => {
  const res = await test.post("/contacts", body);
  expect(res.status, res.text).toBeLessThan(300);
  return res.body as { id: string; time_zone: string | null };
};
const enroll = async (flowId: string, contactId: string) => {
  const res = await test.post(`/flows/${flowId}/enroll`, { to: { contact_id: contactId } });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
};
const runOf = async (id: string) => (await test.get<Run>(`/runs/${id}`)).body;
const entry = (id: string, kind: string, timeoutMs?: number) =>
  until(
    () => runOf(id),
    (r) => r.history.some((h) => h.kind === kind),
    timeoutMs,
  ).then((r) => r.history.find((h) => h.kind === kind)!);
const send = (body: Record<string, unknown>) => ({ type: "send", channel: "whatsapp", whatsapp: { body: "Hi {{name}}" }, ...body });

/** `HH:MM` of `at` in `zone`, read by the runtime's Intl (not by the library the service uses). */
const hhmm = (at: Date, zone: string) =>
  new Intl.DateTimeFormat("en-GB", { timeZone: zone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(at);

describe("contact time zones (D65)", () => {
  it("keeps a contact's IANA zone, clears it with null, and refuses an unknown one", async () => {
    const to = phone();
    const created = await contact({ phone: to, time_zone: "America/Sao_Paulo" });
    expect(created.time_zone).toBe("America/Sao_Paulo");
    expect((await test.get(`/contacts/${created.id}`)).body.time_zone).toBe("America/Sao_Paulo");
    expectError(await test.post("/contacts", { phone: to, time_zone: "Mars/Olympus_Mons" }), {
      status: 400,
      type: "invalid_request",
      param: "time_zone",
    });
    expect((await test.get(`/contacts/${created.id}`)).body.time_zone).toBe("America/Sao_Paulo");
    expect((await contact({ phone: to, time_zone: null })).time_zone).toBeNull();
  });

  it("sets the workspace's zone from the CLI, refusing an unknown one with a clear message", async () => {
    const bad = await svc(env, "workspace", "update", "--workspace", ws.id, "--time-zone", "Nowhere/City", "--json");
    expect(bad.code).not.toBe(0);
    expect(JSON.parse(bad.stdout).error.message).toMatch(/--time-zone: must be an IANA time zone name/);
    // What the text shows (time zone, caps), --json carries too (issue 46).
    expect(await svcJson(env, "workspace", "update", "--workspace", ws.id, "--time-zone", "America/Sao_Paulo")).toEqual({
      workspace: ws.id,
      time_zone: "America/Sao_Paulo",
      caps: {},
      whatsapp_prices: {},
      currency: null,
      guard: { complaints: 0.003, bounces: 0.04 }, // D93's defaults
    });
  }, 180_000);
});

describe("quiet hours (D65)", () => {
  it("refuses quiet hours with bad times, with the path of the fault", async () => {
    expect(await refused({ quiet_hours: { start: "24:00", end: "08:00" }, steps: [send({})] })).toMatchObject({
      param: "quiet_hours.start",
    });
    expect(await refused({ quiet_hours: { start: "21:00", end: "8h" }, steps: [send({})] })).toMatchObject({
      param: "quiet_hours.end",
    });
    expect(await refused({ quiet_hours: { start: "21:00", end: "21:00" }, steps: [send({})] })).toMatchObject({
      param: "quiet_hours.end",
    });
  });

  it("reads the quiet hours in the contact's zone, else its phone country's single zone, else the workspace's", async () => {
    await svcJson(env, "workspace", "update", "--workspace", ws.id, "--time-zone", "America/Sao_Paulo");
    // Quiet all day but for one minute: every send is held, and the history names the zone read.
    // The free minute is one that is not within 10 minutes of now in any of the three zones:
    // 23:59 (the free minute of 00:00-23:59) came at 15:59 UTC in Singapore, and a run sent.
    const now = ["Asia/Tokyo", "Asia/Singapore", "America/Sao_Paulo"].map((zone) => {
      const [h, m] = hhmm(new Date(), zone).split(":").map(Number);
      return h! * 60 + m!;
    });
    const apart = (a: number, b: number) => Math.min((a - b + 1440) % 1440, (b - a + 1440) % 1440);
    const free = Array.from({ length: 1440 }, (_, m) => m).find((m) => now.every((n) => apart(m, n) > 10))!;
    const clock = (m: number) => `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;
    const flowId = await flow({ quiet_hours: { start: clock((free + 1) % 1440), end: clock(free) }, steps: [send({})] });
    const own = await contact({ phone: phone(), time_zone: "Asia/Tokyo" });
    const singapore = await contact({ phone: `+656${String(1_000_000 + seq++).slice(-7)}` });
    const brazil = await contact({ phone: phone() }); // Brazil has several zones: the workspace's
    const zones = await Promise.all(
      [own, singapore, brazil].map(async (c) => (await entry(await enroll(flowId, c.id), "held_quiet_hours")).time_zone),
    );
    expect(zones).toEqual(["Asia/Tokyo", "Asia/Singapore", "America/Sao_Paulo"]);
  }, 180_000);

  it("holds a send due in the quiet hours until they end, then sends it", async () => {
    // Quiet from the last minute to the next one in Kolkata (UTC+5:30, no daylight saving).
    // The end is the next minute, or the one after when the next is too close to enroll before it.
    const now = Date.now();
    const start = new Date(now - 60_000);
    const end = new Date(Math.floor(now / 60_000) * 60_000 + (new Date(now).getUTCSeconds() > 40 ? 120_000 : 60_000));
    const flowId = await flow({
      quiet_hours: { start: hhmm(start, "Asia/Kolkata"), end: hhmm(end, "Asia/Kolkata") },
      steps: [send({}), { type: "exit" }],
    });
    const runId = await enroll(flowId, (await contact({ phone: phone(), time_zone: "Asia/Kolkata" })).id);
    const held = await entry(runId, "held_quiet_hours");
    expect(held).toMatchObject({ step: "steps.0", until: end.toISOString(), time_zone: "Asia/Kolkata" });
    const sent = await entry(runId, "sent", 140_000);
    expect(Date.parse(sent.at)).toBeGreaterThanOrEqual(end.getTime());
    expect((await runOf(runId)).status).toBe("completed");
  }, 180_000);
});

describe("frequency caps (D67, D81)", () => {
  const cli = (...args: string[]) => svc(env, "workspace", "update", "--workspace", ws.id, ...args, "--json");

  it("refuses caps over 1,000 messages or 30 days, from the CLI and in a flow, with the path of the fault", async () => {
    const cases = [
      ["whatsapp=1001/P1D", /--cap whatsapp: .*at most 1000/],
      ["whatsapp=3/P31D", /--cap whatsapp: .*at most 30 days/],
      ["email=3/P1M", /--cap email: .*weeks, days, hours or minutes/],
    ] as const;
    const runs = await Promise.all(cases.map(([cap]) => cli("--cap", cap)));
    runs.forEach((run, i) => {
      expect(run.code, cases[i]![0]).not.toBe(0);
      expect(JSON.parse(run.stdout).error.message).toMatch(cases[i]![1]);
    });
    expect(await refused({ caps: { whatsapp: { count: 0, period: "P1D" } }, steps: [send({})] })).toMatchObject({
      param: "caps.whatsapp.count",
    });
    expect(await refused({ caps: { whatsapp: { count: 3, period: "P31D" } }, steps: [send({})] })).toMatchObject({
      param: "caps.whatsapp.period",
    });
  }, 180_000);

  it("skips a journey send over a cap that one API send and one journey send reached, but never caps an API send", async () => {
    await svcJson(env, "workspace", "update", "--workspace", ws.id, "--cap", "whatsapp=2/P1D");
    try {
      const to = await contact({ phone: phone() });
      const api1 = await test.post("/messages", { channel: "whatsapp", to: { contact_id: to.id }, whatsapp: { body: "Order shipped" } });
      expect(api1.status, api1.text).toBe(202);
      const flowId = await flow({ steps: [send({}), send({ whatsapp: { body: "And again" } }), { type: "exit" }] });
      const runId = await enroll(flowId, to.id);
      const ended = await until(
        () => runOf(runId),
        (r) => r.status !== "active",
      );
      expect(ended.status).toBe("completed");
      expect(ended.history.filter((h) => h.kind === "sent" || h.kind === "skipped").map((h) => [h.step, h.kind, h.reason])).toEqual([
        ["steps.0", "sent", undefined],
        ["steps.1", "skipped", "frequency_capped"],
      ]);
      // API sends are transactional: over the cap, still sent.
      const api2 = await test.post("/messages", { channel: "whatsapp", to: { contact_id: to.id }, whatsapp: { body: "Receipt" } });
      expect(api2.status, api2.text).toBe(202);
    } finally {
      await svcJson(env, "workspace", "update", "--workspace", ws.id, "--cap", "whatsapp=none");
    }
  }, 180_000);

  it("applies a flow's own stricter cap", async () => {
    const to = await contact({ phone: phone() });
    const flowId = await flow({ caps: { whatsapp: { count: 1, period: "PT1H" } }, steps: [send({}), send({}), { type: "exit" }] });
    const runId = await enroll(flowId, to.id);
    const ended = await until(
      () => runOf(runId),
      (r) => r.status !== "active",
    );
    expect(ended.history.filter((h) => h.kind === "skipped").map((h) => h.reason)).toEqual(["frequency_capped"]);
  });
});

describe("random split (D68)", () => {
  it("refuses weights that are not positive whole numbers, and more than 5 paths", async () => {
    const split = (paths: unknown[]) => ({ steps: [{ type: "split", paths }] });
    expect(
      await refused(
        split([
          { weight: 1.5, steps: [] },
          { weight: 1, steps: [] },
        ]),
      ),
    ).toMatchObject({ param: "steps.0.paths.0.weight" });
    expect(
      await refused(
        split([
          { weight: 1, steps: [] },
          { weight: 0, steps: [] },
        ]),
      ),
    ).toMatchObject({ param: "steps.0.paths.1.weight" });
    expect(await refused(split(Array.from({ length: 6 }, () => ({ weight: 1, steps: [] }))))).toMatchObject({ param: "steps.0.paths" });
    expect(await refused(split([{ weight: 1, steps: [] }]))).toMatchObject({ param: "steps.0.paths" });
  });

  it("takes each contact down the path its hash picks, and records the path's index", async () => {
    const flowId = await flow({
      steps: [
        {
          type: "split",
          paths: [
            { weight: 70, steps: [] },
            { weight: 30, steps: [{ type: "exit" }] },
          ],
        },
        send({}),
      ],
    });
    const contacts = await Promise.all(Array.from({ length: 12 }, () => contact({ phone: phone() })));
    const runs = await Promise.all(contacts.map(async (c) => ({ contact: c.id, run: await enroll(flowId, c.id) })));
    for (const { contact: id, run } of runs) {
      const index = splitPath(flowId, [0], id, [70, 30]);
      const ended = await until(
        () => runOf(run),
        (r) => r.status !== "active",
      );
      expect(ended.history.find((h) => h.kind === "path")).toMatchObject({ step: "steps.0", path: `paths.${index}`, index });
      // Path 0 goes on to the send after the split; path 1 exits first.
      expect(ended.history.some((h) => h.kind === "sent")).toBe(index === 0);
    }
  });
});
