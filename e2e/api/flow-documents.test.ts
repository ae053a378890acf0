import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { CART_FLOW, REMINDER_FLOW } from "../../app/docs/journeys/examples.ts";
import { ZFlowDefinition } from "../../server/flows/flow-schemas.ts";
import { api, fixtures } from "../support/client.ts";
import { queryDatabase } from "../support/database.ts";
import { dashboardQuery } from "../support/dashboard.ts";
import { svc, svcJson } from "../support/svc.ts";

// Issue 46: a flow document has one canonical form (D37), stored and served as the service
// writes it, every step with its id (D70), inside branches, splits and wait_for paths too.
// Whatever is saved (through the API, D98: the path of journeys kept in git; the editor reads the
// same document), read back and saved again is the same document and no new version; the per-run preview takes it; `svc flow export` prints
// it and `svc flow import --flow … --migrate keep` of that output changes nothing (D98).
// Over real HTTP and the real CLI, on both engines.
const ws = fixtures().flowDocs!;
const test = api(ws.keys.test);
const env = inject("api").env;
const sql = (text: string, params: unknown[] = []) => queryDatabase(env, text, params);

type Json = Record<string, unknown>;
type Doc = Json & { name: string; steps: Json[] };
type Saved = { id: string; status: string; version: number; definition: Doc };

// D98: saved, read and saved again through the API (POST, GET, PUT /flows); the dashboard's
// editor reads the same document (checked once per document: each request counts on a busy machine).
const create = async (definition: unknown) => {
  const res = await test.post("/flows", definition);
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
};
const read = async (flowId: string, { editor = false } = {}): Promise<Saved> => {
  const res = await test.get(`/flows/${flowId}`);
  expect(res.status, res.text).toBe(200);
  if (editor) expect((await dashboardQuery<Saved>(ws.id, "flows.get", { flow_id: flowId })).definition).toEqual(res.body.document);
  return { ...res.body, definition: res.body.document };
};
const update = async (flowId: string, definition: unknown) => {
  const res = await test.request("PUT", `/flows/${flowId}`, definition);
  expect(res.status, res.text).toBe(200);
  return res.body as { version: number };
};

/**
 * Every step of a document by its place, walking the document's own members (`then`, `else`,
 * `on_event`, `on_timeout`, `paths[i].steps`), independently of the service's walker.
 */
function places(steps: unknown, base = "steps", out = new Map<string, Json>()): Map<string, Json> {
  if (!Array.isArray(steps)) return out;
  steps.forEach((step: Json, i) => {
    const at = `${base}.${i}`;
    out.set(at, step);
    for (const side of ["then", "else", "on_event", "on_timeout"]) places(step[side], `${at}.${side}`, out);
    if (Array.isArray(step.paths)) (step.paths as Json[]).forEach((p, j) => places(p.steps, `${at}.paths.${j}.steps`, out));
  });
  return out;
}

/**
 * Saves `input` as a new flow and checks the canonical form: the document read back is what the
 * strict schema gives for it (no member beside the known ones, defaults written out), every step
 * has an id and a given id is kept at its step, it is stored exactly as served, the per-run
 * preview takes it, and saving it again as read changes nothing (no new version, same document).
 */
async function roundTrip(input: Doc): Promise<Saved> {
  const flowId = await create(input);
  const first = await read(flowId, { editor: true });
  const doc = first.definition;
  const parsed = ZFlowDefinition.safeParse(doc);
  expect(parsed.error?.issues ?? [], JSON.stringify(doc)).toEqual([]);
  expect(parsed.data).toEqual(doc);

  const given = places(input.steps);
  const got = places(doc.steps);
  expect([...got.keys()]).toEqual([...given.keys()]);
  for (const [at, step] of got) {
    expect(step.type, at).toBe(given.get(at)!.type);
    expect(step.id, at).toEqual(given.get(at)!.id ?? expect.stringMatching(/^st_[\w-]{8}$/));
  }
  expect(new Set([...got.values()].map((s) => s.id)).size).toBe(got.size);

  const [stored] = await sql(`SELECT steps FROM flow_versions WHERE flow_id = $1 AND version = $2`, [flowId, first.version]);
  expect(stored!.steps).toEqual(doc.steps);

  const preview = await test.post(`/flows/${flowId}/preview`, { ...doc, ...(first.status === "draft" ? {} : { migrate: "keep" }) });
  expect(preview.status, preview.text).toBe(200);

  const again = await update(flowId, first.status === "draft" ? doc : { ...doc, migrate: "keep" });
  expect(again.version).toBe(first.version);
  const second = await read(flowId);
  expect(second.version).toBe(first.version);
  expect(second.definition).toEqual(doc);
  return first;
}

let tags: string[] = [];
const fields = { text: "", number: "", boolean: "" };

beforeAll(async () => {
  tags = await Promise.all(
    ["VIP", "Nurture", "Churned"].map(async (name) => {
      const res = await test.post("/tags", { name: `${name} ${Date.now()}` });
      expect(res.status, res.text).toBe(201);
      return res.body.id as string;
    }),
  );
  for (const type of ["text", "number", "boolean"] as const) {
    const key = `doc_${type}_${Date.now()}`;
    const res = await test.post("/custom-fields", { name: key, key, type });
    expect(res.status, res.text).toBe(201);
    fields[type] = key;
  }
});

// The generators: nested branch, split and wait_for steps around send, wait, tag, set_field and exit.
const words = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9 ,.!?{}_]{0,24}$/);
const stepId = fc.option(fc.stringMatching(/^[A-Za-z0-9_.:-]{1,20}$/), { nil: undefined });
const duration = (days: number) =>
  fc.constantFrom(...["PT1M", "PT1H", "PT90M", "P1D", "P1DT12H", "P7D", "P2W", "P90D"].slice(0, days >= 90 ? 8 : 5));
const eventName = fc.stringMatching(/^[a-z][a-z0-9_.]{0,15}$/);
const propertyPath = fc.stringMatching(/^[A-Za-z0-9_-]{1,8}(\.[A-Za-z0-9_-]{1,8}){0,2}$/);
const match = fc.dictionary(propertyPath, fc.oneof(words, fc.constant("{{run.key}}")), { minKeys: 1, maxKeys: 3 });

const withId = (step: fc.Arbitrary<Json>): fc.Arbitrary<Json> =>
  fc.tuple(step, stepId).map(([s, id]) => (id === undefined ? s : { ...s, id }));

function leaf(): fc.Arbitrary<Json> {
  return fc.oneof(
    words.map((body) => ({ type: "send", channel: "whatsapp", whatsapp: { body: `${body} {{name}}` } })),
    fc.tuple(words, words).map(([subject, html]) => ({ type: "send", channel: "email", email: { subject, html: `<p>${html}</p>` } })),
    duration(7).map((d) => ({ type: "wait", duration: d })),
    fc
      .date({ min: new Date("2030-01-01"), max: new Date("2031-01-01"), noInvalidDate: true })
      .map((d) => ({ type: "wait", until: d.toISOString() })),
    fc
      .tuple(fc.subarray(tags, { minLength: 1 }), fc.subarray(tags))
      .map(([add, remove]) => ({ type: "tag", add, ...(remove.length ? { remove } : {}) })),
    fc.oneof(
      words.map((value) => ({ type: "set_field", key: fields.text, value })),
      fc.integer({ min: -10_000, max: 10_000 }).map((n) => ({ type: "set_field", key: fields.number, value: n / 4 })),
      fc.boolean().map((value) => ({ type: "set_field", key: fields.boolean, value })),
      fc.constant({ type: "set_field", key: fields.text, value: null }),
    ),
    fc.constant({ type: "exit" }),
  );
}

const condition = () =>
  fc.oneof(
    fc.constantFrom(...tags).map((has_tag) => ({ has_tag })),
    words.map((equals) => ({ field: fields.text, equals })),
    fc.integer({ min: -100, max: 100 }).map((equals) => ({ field: fields.number, equals })),
    fc.boolean().map((equals) => ({ field: fields.boolean, equals })),
    fc.constantFrom(fields.text, fields.number).map((field) => ({ field, exists: true })),
    fc.constantFrom("whatsapp", "email").map((opted_out) => ({ opted_out })),
  );

/** A list of steps up to `depth` levels of nesting; an empty branch or wait_for list is sometimes left out (its default). */
function list(depth: number, maxLength: number, minLength = 0): fc.Arbitrary<Json[]> {
  return fc.array(step(depth), { minLength, maxLength });
}

function step(depth: number): fc.Arbitrary<Json> {
  if (depth === 0) return withId(leaf());
  const inner = list(depth - 1, 2);
  const sides = (a: string, b: string) =>
    fc.tuple(inner, inner, fc.boolean()).map(([x, y, omitEmpty]) => ({
      ...(x.length || !omitEmpty ? { [a]: x } : {}),
      ...(y.length || !omitEmpty ? { [b]: y } : {}),
    }));
  const branch = fc.tuple(condition(), sides("then", "else")).map(([c, s]) => ({ type: "branch", if: c, ...s }));
  const waitFor = fc
    .tuple(
      fc.oneof(
        fc.record({ event: eventName, match, lookback: duration(7) }, { requiredKeys: ["event"] }),
        fc.record({ message: fc.constantFrom("delivered", "read", "replied", "failed") }),
      ),
      duration(90),
      sides("on_event", "on_timeout"),
    )
    .map(([what, timeout, s]) => ({ type: "wait_for", ...what, timeout, ...s }));
  const split = fc
    .array(fc.record({ weight: fc.integer({ min: 1, max: 1_000_000 }), steps: inner }), { minLength: 2, maxLength: depth > 1 ? 5 : 3 })
    .map((paths) => ({ type: "split", paths }));
  return withId(fc.oneof(leaf(), leaf(), branch, waitFor, split));
}

/** Ids unique in the document (D70), as a duplicate is refused: a repeated one gets a suffix. */
function uniqueIds(doc: Doc): Doc {
  const copy = structuredClone(doc);
  const seen = new Set<string>();
  let n = 0;
  for (const s of places(copy.steps).values()) {
    if (typeof s.id !== "string") continue;
    while (seen.has(s.id as string)) s.id = `${s.id as string}-${n++}`;
    seen.add(s.id as string);
  }
  return copy;
}

const documents = () =>
  fc
    .record(
      {
        name: words,
        status: fc.constantFrom("draft", "active", "paused"),
        allow_reentry: fc.boolean(),
        trigger: fc.record(
          {
            event: eventName,
            where: fc.oneof(
              fc.record({ property: propertyPath, equals: words }),
              fc.record({
                all: fc.array(fc.record({ property: propertyPath, gte: fc.integer({ min: 0, max: 100 }) }), { minLength: 1, maxLength: 2 }),
              }),
            ),
            key: fc.constant("{{event.id}}"),
          },
          { requiredKeys: ["event"] },
        ),
        goal: fc.record({ event: eventName, match, exit: fc.boolean() }, { requiredKeys: ["event"] }),
        quiet_hours: fc.constantFrom({ start: "21:00", end: "08:00" }, { start: "12:30", end: "14:00" }),
        caps: fc.record({
          whatsapp: fc.record({ count: fc.integer({ min: 1, max: 1000 }), period: fc.constantFrom("P1D", "PT12H", "P1W") }),
        }),
        steps: list(3, 3, 1),
      },
      { requiredKeys: ["name", "status", "steps"] },
    )
    .map((doc) => uniqueIds(doc as Doc));

describe("flow documents in one canonical form (issue 46, D37, D70)", () => {
  it(
    "any generated document saved, read back and saved again is unchanged: ids kept, no extra members, no new version",
    { timeout: 120_000 },
    async () => {
      // Modest on purpose: each run is six requests to the real server (save, read, database, preview, save, read).
      await fc.assert(
        fc.asyncProperty(documents(), async (doc) => {
          await roundTrip(doc);
        }),
        { numRuns: 20, endOnFailure: true },
      );
    },
  );

  it("every shape of the docs round-trips: D37's example, the worked journeys, a split holding a branch and a wait_for", async () => {
    const [vip, nurture] = tags;
    const d37 = {
      name: "Welcome",
      status: "active",
      allow_reentry: false,
      steps: [
        { type: "send", channel: "whatsapp", whatsapp: { body: "Hi {{name}}" } },
        { type: "wait", duration: "PT1H" },
        {
          type: "branch",
          if: { has_tag: vip },
          then: [{ type: "send", channel: "email", email: { subject: "Welcome", html: "<p>Hello {{name}}</p>" } }],
          else: [{ type: "tag", add: [nurture] }],
        },
        { type: "set_field", key: fields.text, value: "onboarded" },
        { type: "exit" },
      ],
    };
    const splitJourney = {
      name: "Split journey",
      status: "active",
      quiet_hours: { start: "21:00", end: "08:00" },
      caps: { whatsapp: { count: 3, period: "P1D" }, email: { count: 1, period: "PT12H" } },
      goal: { event: "order_paid", match: { order_id: "{{run.key}}" } },
      steps: [
        {
          type: "split",
          id: "ab",
          paths: [
            {
              weight: 50,
              steps: [
                { type: "branch", if: { opted_out: "whatsapp" }, then: [{ type: "exit" }] },
                {
                  type: "wait_for",
                  event: "order_paid",
                  match: { order_id: "{{run.key}}" },
                  lookback: "P1D",
                  timeout: "P3D",
                  on_event: [{ type: "tag", add: [vip] }],
                  on_timeout: [
                    { type: "send", channel: "whatsapp", whatsapp: { body: "Still there?" } },
                    { type: "split", paths: [{ weight: 1, steps: [{ type: "exit" }] }, { weight: 3 }] },
                  ],
                },
              ],
            },
            {
              weight: 50,
              steps: [{ type: "wait_for", message: "replied", timeout: "P1D", on_timeout: [{ type: "exit", id: "gave_up" }] }],
            },
          ],
        },
      ],
    };
    for (const doc of [d37, CART_FLOW, REMINDER_FLOW, splitJourney]) await roundTrip(doc as unknown as Doc);
  });

  // Six runs of the CLI, each loading the services (seconds apiece on a busy machine).
  it(
    "svc flow export prints the stored document, and importing it with --flow … --migrate keep changes nothing (D98)",
    { timeout: 180_000 },
    async () => {
      const flowId = await create({
        name: "Exported",
        status: "active",
        steps: [
          { type: "send", channel: "whatsapp", whatsapp: { body: "Hi {{name}}" } },
          {
            type: "split",
            paths: [
              {
                weight: 70,
                steps: [
                  { type: "branch", if: { has_tag: tags[0] }, then: [{ type: "wait", duration: "PT1H" }], else: [] },
                  { type: "wait_for", event: "order_paid", timeout: "P2D", on_event: [{ type: "exit" }], on_timeout: [] },
                ],
              },
              { weight: 30, steps: [{ type: "tag", add: [tags[1]] }] },
            ],
          },
        ],
      });
      const saved = await read(flowId);
      const exported = await svc(env, "flow", "export", "--workspace", ws.id, "--flow", flowId);
      expect(exported.stderr).toBe("");
      expect(exported.code).toBe(0);
      const document = JSON.parse(exported.stdout) as Doc;
      expect(document).toEqual(saved.definition);
      expect(exported.stdout).not.toContain('"paths.');
      expect(await svcJson(env, "flow", "export", "--workspace", ws.id, "--flow", flowId)).toEqual(document);

      const file = join(mkdtempSync(join(tmpdir(), "svc-flow-export-")), "exported.json");
      writeFileSync(file, exported.stdout);
      expect(await svcJson(env, "flow", "import", "--workspace", ws.id, "--file", file, "--flow", flowId, "--migrate", "keep")).toEqual({
        flow_id: flowId,
        version: saved.version,
      });
      expect((await read(flowId)).definition).toEqual(document);
      // Imported as a new flow, it is the same document (its step ids too).
      const copy = await svcJson(env, "flow", "import", "--workspace", ws.id, "--file", file);
      expect((await read(copy.flow_id as string)).definition).toEqual(document);

      const missing = await svc(env, "flow", "export", "--workspace", ws.id, "--flow", "flow_missing", "--json");
      expect(missing.code).toBe(1);
      expect(JSON.parse(missing.stdout)).toMatchObject({ error: { code: "resource_missing" } });
      expect(missing.stderr).toContain("--flow flow_missing");
      const nowhere = await svc(env, "flow", "import", "--workspace", ws.id, "--file", file, "--flow", "flow_missing", "--json");
      expect(nowhere.code).toBe(1);
      expect(JSON.parse(nowhere.stdout)).toMatchObject({ error: { code: "resource_missing" } });
      expect(nowhere.stderr).toContain("--flow flow_missing");
    },
  );
});
