import { describe, expect, inject, it } from "vitest";
import { api, fixtures } from "../support/client.ts";
import { queryDatabase } from "../support/database.ts";
import { changedCounts, rowCounts, settledCounts } from "../support/row-counts.ts";
import { dashboardMutation, dashboardQuery } from "../support/dashboard.ts";
import { poll } from "../support/until.ts";

// Journeys people trust, part B (issue 32): step ids (D70), statistics (D69, D83), and edits
// previewed per run and moved onto the new version (D70, D83), over real HTTP on both engines.
const ws = fixtures().flowEdits!;
const test = api(ws.keys.test);
const readOnly = api(ws.keys.readOnly);
const mutation = <T>(path: string, input: unknown) => dashboardMutation<T>(ws.id, path, input);
const query = <T>(path: string, input: unknown) => dashboardQuery<T>(ws.id, path, input);
const sql = (text: string, params: unknown[] = []) => queryDatabase(inject("api").env, text, params);

let seq = 0;
const phone = () => `+55119${String(30_000_000 + (Date.now() % 1_000_000) * 10 + seq++).slice(-8)}`;
type Doc = { name: string; status?: string; steps: Record<string, unknown>[] } & Record<string, unknown>;
const create = async (definition: Doc) => (await mutation<{ flow_id: string }>("flows.create", { definition })).flow_id;
const documentOf = async (flowId: string) => (await query<{ definition: Doc }>("flows.get", { flow_id: flowId })).definition;

describe("step ids (D70)", () => {
  it("assigns an id to every step without one, keeps given ones, and shows them in the document", async () => {
    const f = await create({
      name: "Ids",
      steps: [
        { type: "branch", id: "check", if: { opted_out: "email" }, then: [{ type: "exit" }], else: [{ type: "wait", duration: "PT1H" }] },
        { type: "exit" },
      ],
    });
    const doc = await documentOf(f);
    const [branch, exit] = doc.steps as { id: string; then: { id: string }[]; else: { id: string }[] }[];
    expect(branch!.id).toBe("check");
    for (const id of [branch!.then[0]!.id, branch!.else[0]!.id, exit!.id]) expect(id).toMatch(/^st_[\w-]{8}$/);
    // Saved again as shown, the ids stay.
    await mutation("flows.update", { flow_id: f, definition: doc });
    expect(await documentOf(f)).toEqual(doc);
  });

  it("refuses a duplicate id, or one over 64 characters, with the path of the step", async () => {
    const bad = (steps: unknown[]) => mutation("flows.create", { definition: { name: "Bad ids", steps } });
    await expect(
      bad([
        { type: "exit", id: "a" },
        { type: "branch", if: { opted_out: "email" }, then: [{ type: "exit", id: "a" }] },
      ]),
    ).rejects.toThrow(/"param":"steps.1.then.0.id"/);
    await expect(bad([{ type: "exit", id: "x".repeat(65) }])).rejects.toThrow(/"param":"steps.0.id"/);
  });
});

type Stats = {
  flow_id: string;
  runs: Record<string, number>;
  conversions: number;
  versions: {
    version: number;
    steps: {
      id: string;
      path: string;
      type: string;
      reached: number;
      waiting: number;
      stopped: number;
      failed: number;
      skipped: Record<string, number>;
      messages: Record<string, number>;
      paths?: { index: number; taken: number }[];
    }[];
  }[];
};

/** Polls `read` until `done` holds (the inline pipeline walks runs in the background). */
const until = <T>(read: () => Promise<T>, done: (v: T) => boolean, ms = 20_000): Promise<T> => poll(read, done, ms, 200);

// Before the statistics' test: its preview checks that nothing is written in this file's
// workspace, and the statistics' test leaves test-mode e-mails whose simulated reports were
// still landing once (CI, PGlite: 2 reports between the readings although no job was due
// within a minute at the first).
describe("edits previewed per run and moved (D70, D83)", () => {
  const v1 = (extra: Record<string, unknown> = {}): Doc => ({
    name: "Edited live",
    status: "active",
    ...extra,
    steps: [
      {
        type: "branch",
        id: "vip",
        if: { opted_out: "whatsapp" },
        then: [
          { type: "wait", id: "wait_a", duration: "PT1H" },
          { type: "send", id: "gone", channel: "email", email: { subject: "Gone", html: "<p>x</p>" } },
          { type: "send", id: "after", channel: "email", email: { subject: "After {{name}}", html: "<p>x</p>" } },
        ],
        else: [
          { type: "wait", id: "wait_b", duration: "PT2H" },
          { type: "send", id: "edit", channel: "email", email: { subject: "Old subject", html: "<p>x</p>" } },
        ],
      },
    ],
  });
  // The new version: a step first (every path shifts), `gone` deleted, `edit` with new words.
  const v2 = (migrate?: string): Doc => {
    const doc = structuredClone(v1(migrate ? { migrate } : {}));
    const branch = doc.steps[0] as { then: { id: string }[]; else: { email: { subject: string } }[] };
    branch.then = branch.then.filter((s) => s.id !== "gone");
    branch.else[1]!.email.subject = "New subject {{name}}";
    doc.steps.unshift({ type: "wait", id: "first", duration: "PT1M" });
    return doc;
  };

  it("previews each run under the old and the new version, changing nothing, then moves them where their step went", async () => {
    const f = await create(v1());
    // Ana has opted out of WhatsApp: she takes `then`, Bia `else`.
    const ana0 = await test.post("/contacts", { email: `ana${seq++}@example.com`, name: "Ana" });
    await sql(`UPDATE contacts SET opt_out_whatsapp = true WHERE id = $1`, [ana0.body.id]);
    const a = await test.post(`/flows/${f}/enroll`, { to: { contact_id: ana0.body.id } });
    const b = await test.post(`/flows/${f}/enroll`, { to: { email: `bia${seq++}@example.com`, name: "Bia" } });
    expect([a.status, b.status]).toEqual([201, 201]);
    const due = await until(
      () => sql(`SELECT id, next_step_at, position FROM flow_runs WHERE id = ANY($1::text[]) ORDER BY id`, [[a.body.id, b.body.id]]),
      (rows) => rows.every((r) => r.next_step_at !== null && JSON.stringify(r.position) !== "[0]"),
    );
    const before = await settledCounts(ws.id);
    const res = await readOnly.post(`/flows/${f}/preview`, v2("move"));
    expect(res.status).toBe(200);
    expect(res.body.counts).toEqual({ runs: 2, moved: 2, kept: 0, completed: 0 });
    const ana = res.body.runs.find((r: { run_id: string }) => r.run_id === a.body.id);
    const bia = res.body.runs.find((r: { run_id: string }) => r.run_id === b.body.id);
    const dueOf = (id: string) => new Date(due.find((r) => r.id === id)!.next_step_at as string).toISOString();
    expect(ana).toEqual({
      run_id: a.body.id,
      contact_id: a.body.contact_id,
      current: { id: "wait_a", path: "steps.0.then.0" },
      next: {
        old: { step: "gone", action: "send", at: dueOf(a.body.id), text: "Gone" },
        new: { step: "after", action: "send", at: dueOf(a.body.id), text: "After Ana" },
      },
    });
    expect(bia.current).toEqual({ id: "wait_b", path: "steps.0.else.0" });
    expect(bia.next.old).toMatchObject({ step: "edit", text: "Old subject", at: dueOf(b.body.id) });
    expect(bia.next.new).toMatchObject({ step: "edit", text: "New subject Bia", at: dueOf(b.body.id) });
    // `keep` (the default) keeps every run where it is.
    const kept = await readOnly.post(`/flows/${f}/preview`, v2());
    expect(kept.body.counts).toEqual({ runs: 2, moved: 0, kept: 2, completed: 0 });
    expect(kept.body.runs[0].next.new).toEqual(kept.body.runs[0].next.old);
    // Nothing was written: the workspace is this file's own, and its counts had settled before the previews.
    expect(changedCounts(before, await rowCounts(ws.id))).toEqual({});

    // Saved with `move`: Ana's step was deleted, she continues at the next one that exists; Bia at her edited step.
    const saved = await mutation<{ version: number; runs: unknown }>("flows.update", { flow_id: f, definition: v2("move") });
    expect(saved).toMatchObject({ version: 2, runs: { moved: 2, completed: 0 } });
    const rows = await sql(
      `SELECT id, version, position, waiting_at, next_step_at, status::text AS status FROM flow_runs WHERE id = ANY($1::text[]) ORDER BY id`,
      [[a.body.id, b.body.id]],
    );
    const row = (id: string) => rows.find((r) => r.id === id)!;
    expect(row(a.body.id)).toMatchObject({ version: 2, status: "active", position: [1, "then", 1], waiting_at: [1, "then", 0] });
    expect(row(b.body.id)).toMatchObject({ version: 2, status: "active", position: [1, "else", 1], waiting_at: [1, "else", 0] });
    for (const id of [a.body.id, b.body.id]) expect(new Date(row(id).next_step_at as string).toISOString()).toBe(dueOf(id));
    const jobs = await sql(`SELECT subject_id, payload, run_at FROM jobs WHERE kind = 'flow.step' AND subject_id = $1`, [a.body.id]);
    expect(jobs).toHaveLength(1);
    expect(jobs[0]!.payload).toMatchObject({ position: [1, "then", 1] });
    const run = await test.get(`/runs/${a.body.id}`);
    // D82: the step it waits in (its wait, moved to steps.1.then.0), not the send after it.
    expect(run.body).toMatchObject({ version: 2, current_step: { id: "wait_a", path: "steps.1.then.0" } });
    expect(run.body.history.at(-1)).toMatchObject({ kind: "moved", version: 2, from_version: 1, step: "steps.1.then.1" });
  }, 120_000);

  it("completes a run whose step is gone with nothing after it (step_removed)", async () => {
    const doc: Doc = {
      name: "Shrinking",
      status: "active",
      steps: [
        { type: "wait", id: "hold", duration: "PT1H" },
        { type: "send", id: "last", channel: "email", email: { subject: "Bye", html: "<p>x</p>" } },
      ],
    };
    const f = await create(doc);
    const r = await test.post(`/flows/${f}/enroll`, { to: { email: `end${seq++}@example.com` } });
    await until(
      () => sql(`SELECT position FROM flow_runs WHERE id = $1`, [r.body.id]),
      (rows) => JSON.stringify(rows[0]!.position) === "[1]",
    );
    const next = { ...doc, migrate: "move", steps: [{ type: "wait", id: "hold", duration: "PT1H" }] };
    const preview = await readOnly.post(`/flows/${f}/preview`, next);
    expect(preview.body.counts).toEqual({ runs: 1, moved: 0, kept: 0, completed: 1 });
    expect(preview.body.runs[0].next.new).toMatchObject({ step: null, action: "complete", text: null });
    await mutation("flows.update", { flow_id: f, definition: next });
    const run = await test.get(`/runs/${r.body.id}`);
    expect(run.body).toMatchObject({ status: "completed", current_step: null });
    expect(run.body.history.at(-1)).toMatchObject({ kind: "ended", status: "completed", reason: "step_removed" });
    expect(await sql(`SELECT 1 FROM jobs WHERE subject_id = $1`, [r.body.id])).toEqual([]);
  });

  it("refuses migrate on a draft, and an invalid document with the param a save gives", async () => {
    const draft = await create({ name: "Draft", steps: [{ type: "exit" }] });
    await expect(
      mutation("flows.update", { flow_id: draft, definition: { name: "Draft", migrate: "move", steps: [{ type: "exit" }] } }),
    ).rejects.toThrow(/"param":"migrate"/);
    const draftPreview = await readOnly.post(`/flows/${draft}/preview`, { name: "Draft", migrate: "keep", steps: [{ type: "exit" }] });
    expect(draftPreview.status).toBe(400);
    expect(draftPreview.body.error).toMatchObject({ param: "migrate" });
    const active = await create({ name: "Active", status: "active", steps: [{ type: "exit" }] });
    const bad = {
      name: "Bad",
      steps: [
        { type: "exit", id: "x" },
        { type: "wait", id: "x", duration: "PT1H" },
      ],
    };
    await expect(mutation("flows.update", { flow_id: active, definition: bad })).rejects.toThrow(/"param":"steps.1.id"/);
    const res = await readOnly.post(`/flows/${active}/preview`, bad);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ param: "steps.1.id" });
    const wrong = await readOnly.post(`/flows/${active}/preview`, { ...bad, migrate: "jump" });
    expect(wrong.body.error).toMatchObject({ param: "migrate" });
  });
});

describe("GET /flows/{flow_id}/stats (D69, D83)", () => {
  it("counts runs, steps, skips by reason, messages by status and paths, in the key's mode", async () => {
    const f = await create({
      name: "Counted",
      status: "active",
      steps: [
        {
          type: "branch",
          id: "opted",
          if: { opted_out: "email" },
          then: [{ type: "exit", id: "bye" }],
          else: [{ type: "send", id: "mail", channel: "email", email: { subject: "Hi {{name}}", html: "<p>Hi</p>" } }],
        },
        { type: "wait", id: "hold", duration: "PT1H" },
      ],
    });
    const enrolled = [];
    for (const to of [{ email: `a${seq++}@example.com` }, { phone: phone() }, { email: `c${seq++}@example.com` }]) {
      const res = await test.post(`/flows/${f}/enroll`, { to });
      expect(res.status).toBe(201);
      enrolled.push(res.body.id as string);
    }
    const read = async () => {
      const res = await readOnly.get(`/flows/${f}/stats`);
      expect(res.status).toBe(200);
      return res.body as Stats;
    };
    let stats = await until(read, (s) => s.versions[0]!.steps.find((x) => x.id === "hold")!.waiting === 3);
    await test.post(`/flows/${f}/unenroll`, {
      to: { contact_id: (await sql(`SELECT contact_id FROM flow_runs WHERE id = $1`, [enrolled[2]]))[0]!.contact_id },
    });
    stats = await until(read, (s) => s.runs.stopped === 1);
    expect(stats).toMatchObject({ flow_id: f, runs: { active: 2, completed: 0, stopped: 1, failed: 0 }, conversions: 0 });
    expect(stats.versions).toHaveLength(1);
    const [opted, bye, mail, hold] = stats.versions[0]!.steps;
    expect(opted).toEqual({
      id: "opted",
      path: "steps.0",
      type: "branch",
      reached: 3,
      waiting: 0,
      stopped: 0,
      failed: 0,
      skipped: {},
      messages: {},
      paths: [
        { index: 0, taken: 0 },
        { index: 1, taken: 3 },
      ],
    });
    expect(bye).toMatchObject({ id: "bye", path: "steps.0.then.0", reached: 0 });
    expect(mail).toMatchObject({ id: "mail", path: "steps.0.else.0", type: "send", reached: 3, skipped: { no_address: 1 } });
    expect(Object.values(mail!.messages).reduce((a, b) => a + b, 0)).toBe(2);
    expect(hold).toMatchObject({ id: "hold", path: "steps.1", reached: 3, waiting: 2, stopped: 1, failed: 0 });
    // Live runs are counted apart: the live key sees none of the test runs.
    const live = (await api(ws.keys.live).get(`/flows/${f}/stats`)).body as Stats;
    expect(live.runs).toEqual({ active: 0, completed: 0, stopped: 0, failed: 0 });
  });

  it("counts a run moved onto a new version as having reached the wait it goes on with there, and previews a wait_for's event and timeout", async () => {
    // Issue 46: a moved run was in no step's `reached` of its new version, though `waiting` there.
    const v1: Doc = {
      name: "Moved and counted",
      status: "active",
      steps: [
        {
          type: "branch",
          id: "who",
          if: { opted_out: "whatsapp" },
          then: [{ type: "wait", id: "hold", duration: "PT1H" }],
          else: [{ type: "wait_for", id: "paid", event: "order_paid", timeout: "P1D" }],
        },
        { type: "send", id: "bye", channel: "email", email: { subject: "Bye", html: "<p>x</p>" } },
      ],
    };
    const f = await create(v1);
    const ana = await test.post("/contacts", { email: `mv${seq++}@example.com`, name: "Ana" });
    await sql(`UPDATE contacts SET opt_out_whatsapp = true WHERE id = $1`, [ana.body.id]);
    const a = await test.post(`/flows/${f}/enroll`, { to: { contact_id: ana.body.id } });
    const b = await test.post(`/flows/${f}/enroll`, { to: { email: `mv${seq++}@example.com`, name: "Bia" } });
    expect([a.status, b.status]).toEqual([201, 201]);
    const read = async () => (await readOnly.get(`/flows/${f}/stats`)).body as Stats;
    const step = (s: Stats, version: number, id: string) => s.versions.find((v) => v.version === version)!.steps.find((x) => x.id === id)!;
    await until(read, (s) => step(s, 1, "hold").waiting === 1 && step(s, 1, "paid").waiting === 1);
    const [biaRun] = await sql(`SELECT next_step_at FROM flow_runs WHERE id = $1`, [b.body.id]);
    const timeout = new Date(biaRun!.next_step_at as string).toISOString();

    // A step first: every path shifts, and each run moves to its wait's new place.
    const v2 = { ...structuredClone(v1), migrate: "move" };
    v2.steps.unshift({ type: "wait", id: "first", duration: "PT1M" });
    const preview = await readOnly.post(`/flows/${f}/preview`, v2);
    const bia = preview.body.runs.find((r: { run_id: string }) => r.run_id === b.body.id);
    const waits = { step: "paid", action: "wait_for", at: timeout, text: null, for: "order_paid", until: timeout };
    expect(bia).toMatchObject({ current: { id: "paid", path: "steps.0.else.0" }, next: { old: waits, new: waits } });

    const saved = await mutation<{ version: number; runs: unknown }>("flows.update", { flow_id: f, definition: v2 });
    expect(saved).toMatchObject({ version: 2, runs: { moved: 2, completed: 0 } });
    const stats = await until(read, (s) => s.versions.length === 2);
    expect(step(stats, 2, "hold")).toMatchObject({ path: "steps.1.then.0", reached: 1, waiting: 1 });
    expect(step(stats, 2, "paid")).toMatchObject({ path: "steps.1.else.0", reached: 1, waiting: 1 });
    // Steps they did not run on version 2 are not counted there; version 1 keeps what they did on it.
    expect(step(stats, 2, "first")).toMatchObject({ reached: 0, waiting: 0 });
    expect(step(stats, 2, "who")).toMatchObject({ reached: 0 });
    expect(step(stats, 1, "hold")).toMatchObject({ reached: 1, waiting: 0 });
    expect(step(stats, 1, "paid")).toMatchObject({ reached: 1, waiting: 0 });
    expect(stats.runs).toMatchObject({ active: 2 });
  }, 120_000);

  it("places a run waiting in a timed wait in its wait: GET /runs, GET /flows/{id}/runs and the statistics (D82, D83)", async () => {
    const tag = await test.post("/tags", { name: `paused-${seq++}` });
    expect(tag.status).toBe(201);
    const f = await create({
      name: "Paused",
      status: "active",
      steps: [
        { type: "tag", id: "mark", add: [tag.body.id] },
        { type: "wait", id: "pause", duration: "PT1H" },
        { type: "exit", id: "done" },
      ],
    });
    const enrolled = await test.post(`/flows/${f}/enroll`, { to: { email: `p${seq++}@example.com` } });
    expect(enrolled.status).toBe(201);
    const stats = await until(
      async () => (await readOnly.get(`/flows/${f}/stats`)).body as Stats,
      (s) => s.versions[0]!.steps.find((x) => x.id === "pause")!.waiting === 1,
    );
    expect(stats.versions[0]!.steps.map((x) => [x.id, x.waiting])).toEqual([
      ["mark", 0],
      ["pause", 1],
      ["done", 0],
    ]);
    // The step it waits in, not the one after it (the run's position, where it goes on).
    const run = await readOnly.get(`/runs/${enrolled.body.id}`);
    expect(run.body).toMatchObject({ status: "active", current_step: { id: "pause", path: "steps.1" } });
    const listed = await readOnly.get(`/flows/${f}/runs`);
    expect(listed.body).toEqual([expect.objectContaining({ id: enrolled.body.id, current_step: { id: "pause", path: "steps.1" } })]);
  });

  it("answers 404 for another workspace's or an unknown flow", async () => {
    const res = await readOnly.get(`/flows/flow_nope/stats`);
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ param: "flow_id" });
  });
});
