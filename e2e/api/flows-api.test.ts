import { beforeAll, describe, expect, inject, it } from "vitest";
import { api, expectError, fixtures } from "../support/client.ts";
import { queryDatabase } from "../support/database.ts";
import { dashboardQuery } from "../support/dashboard.ts";

// D98: flows created, read, replaced, moved and versioned over REST; D99: contacts listed,
// tags and custom fields deleted (in_use while a flow that can still run names them). Over
// real HTTP against the real server, on both engines.
const ws = fixtures().flowsApi!;
const client = api(ws.keys.test);
const readOnly = api(ws.keys.readOnly);
const env = inject("api").env;
type Json = Record<string, any>;
const sql = (text: string, params: unknown[] = []) => queryDatabase(env, text, params) as Promise<Json[]>;
const count = async (text: string, params: unknown[]) => Number((await sql(text, params))[0]!.n);

let seq = 0;
const unique = (prefix: string) => `${prefix} ${Date.now()} ${seq++}`;
const phone = () => `+55119${String(70_000_000 + (Date.now() % 1_000_000) * 10 + seq++).slice(-8)}`;

async function created(path: string, body: unknown): Promise<Json> {
  const res = await client.post(path, body);
  expect(res.status, res.text).toBe(201);
  return res.body;
}

let tag = "";
let field = "";
beforeAll(async () => {
  tag = (await created("/tags", { name: unique("VIP") })).id;
  field = (await created("/custom-fields", { name: "Stage", key: `stage_${Date.now()}`, type: "text" })).key;
});

const welcome = () => ({
  name: unique("Welcome"),
  status: "active",
  steps: [
    { id: "hello", type: "send", channel: "whatsapp", whatsapp: { body: "Hi {{name}}!" } },
    { id: "pause", type: "wait", duration: "P1D" },
    { type: "branch", if: { has_tag: tag }, then: [{ type: "set_field", key: field, value: "vip" }] },
  ],
});

describe("flows over REST (D98)", () => {
  it("creates a flow from a document (201, version 1, every step with an id) and reads the same document back", async () => {
    const input = welcome();
    const flow = await created("/flows", input);
    expect(flow).toMatchObject({ id: expect.stringMatching(/^flow_/), name: input.name, status: "active", version: 1 });
    expect(Object.keys(flow).sort()).toEqual(["created_at", "document", "id", "name", "status", "updated_at", "version"]);
    expect(flow.document.steps.map((s: Json) => s.id)).toEqual(["hello", "pause", expect.stringMatching(/^st_/)]);
    expect(flow.document.steps[2].then[0].id).toMatch(/^st_/);
    expect(flow.document.steps[2].else).toEqual([]);

    const read = await client.get(`/flows/${flow.id}`);
    expect(read.status, read.text).toBe(200);
    expect(read.body).toEqual(flow);
    // The dashboard's editor reads the same document.
    const editor = await dashboardQuery<Json>(ws.id, "flows.get", { flow_id: flow.id });
    expect(editor.definition).toEqual(flow.document);
    // The audit log names the key that created it.
    const [audit] = await sql(`SELECT actor_type, action FROM audit_events WHERE target_id = $1 ORDER BY created_at LIMIT 1`, [flow.id]);
    expect(audit).toMatchObject({ action: "flow.created" });
  });

  it("honours Idempotency-Key on create: the same key answers the same flow, and no second one is made", async () => {
    const input = welcome();
    const headers = { "Idempotency-Key": `flow-${Date.now()}` };
    const first = await client.post("/flows", input, { headers });
    const again = await client.post("/flows", input, { headers });
    expect(first.status, first.text).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body.id).toBe(first.body.id);
    const n = await count(`SELECT count(*)::int AS n FROM flows WHERE workspace_id = $1 AND name = $2`, [ws.id, input.name]);
    expect(n).toBe(1);
  });

  it("answers a document's fault at its path in the document, with a message in words, and writes nothing", async () => {
    const name = unique("Broken");
    const cases: [unknown[], string, string][] = [
      [
        [{ type: "wait", duration: "P1D" }, { type: "wait" }, { type: "send", channel: "whatsapp", whatsapp: { body: 5 } }],
        "steps.1.duration",
        "parameter_invalid",
      ],
      [
        [
          { type: "wait", duration: "P1D" },
          { type: "wait", duration: "P1D" },
          { type: "send", channel: "whatsapp", whatsapp: { body: 5 } },
        ],
        "steps.2.whatsapp.body",
        "parameter_invalid",
      ],
      [[{ type: "branch", if: { has_tag: "tag_missing" }, then: [] }], "steps.0.if.has_tag", "unknown_tag"],
      [
        [{ type: "branch", if: { exists: true, field }, then: [{ type: "set_field", key: "nope", value: 1 }] }],
        "steps.0.then.0.key",
        "unknown_field",
      ],
      [
        [
          { id: "a", type: "exit" },
          { id: "a", type: "exit" },
        ],
        "steps.1.id",
        "parameter_invalid",
      ],
    ];
    for (const [steps, param, code] of cases) {
      const res = await client.post("/flows", { name, steps });
      const error = expectError(res, { status: 400, type: "invalid_request", code, param });
      expect(error.message, res.text).toMatch(new RegExp(`^${param.replace(/\./g, "\\.")}: [a-z]`));
      expect(error.message).not.toMatch(/\[object|undefined|ZodError/);
    }
    expectError(await client.post("/flows", { name, steps: [{ type: "exit" }], colour: "red" }), {
      status: 400,
      type: "invalid_request",
      code: "unknown_parameter",
      param: "colour",
    });
    expectError(await client.post("/flows", { name, status: "archived", steps: [{ type: "exit" }] }), {
      status: 409,
      type: "conflict",
      code: "invalid_flow_status",
      param: "status",
    });
    const n = await count(`SELECT count(*)::int AS n FROM flows WHERE workspace_id = $1 AND name = $2`, [ws.id, name]);
    expect(n).toBe(0);
  });

  it("replaces a document with migrate keep or move: a new version only when it changed, runs kept or moved by step id", async () => {
    const flow = await created("/flows", welcome());
    // A run waiting at `pause`.
    const run = await client.post(`/flows/${flow.id}/enroll`, { to: { phone: phone() } });
    expect(run.status, run.text).toBe(201);
    await expect.poll(async () => (await client.get(`/runs/${run.body.id}`)).body.current_step?.id, { timeout: 30_000 }).toBe("pause");

    // The document as read, sent back: the same flow, no new version.
    const same = await client.request("PUT", `/flows/${flow.id}`, { ...flow.document, migrate: "keep" });
    expect(same.status, same.text).toBe(200);
    expect(same.body.version).toBe(1);
    expect(same.body.document).toEqual(flow.document);

    // Changed, kept: version 2, the run stays on version 1.
    const kept = { ...flow.document, steps: [...flow.document.steps.slice(0, 2), { id: "bye", type: "exit" }] };
    const v2 = await client.request("PUT", `/flows/${flow.id}`, { ...kept, migrate: "keep" });
    expect(v2.status, v2.text).toBe(200);
    expect(v2.body).toMatchObject({ id: flow.id, version: 2 });
    expect(v2.body.document.steps.map((s: Json) => s.id)).toEqual(["hello", "pause", "bye"]);
    const [keptRun] = await sql(`SELECT version FROM flow_runs WHERE id = $1`, [run.body.id]);
    expect(keptRun!.version).toBe(1);

    // Changed, moved: version 3, the run continues on it at the step with the same id.
    const moved = {
      ...v2.body.document,
      steps: [
        { id: "pause", type: "wait", duration: "P2D" },
        { id: "bye", type: "exit" },
      ],
    };
    const v3 = await client.request("PUT", `/flows/${flow.id}`, { ...moved, migrate: "move" });
    expect(v3.status, v3.text).toBe(200);
    expect(v3.body.version).toBe(3);
    const [movedRun] = await sql(`SELECT version FROM flow_runs WHERE id = $1`, [run.body.id]);
    expect(movedRun!.version).toBe(3);

    // Faults of a replacement: at the document's path; an unknown flow; a bad migrate.
    expectError(
      await client.request("PUT", `/flows/${flow.id}`, { ...moved, steps: [{ type: "tag", add: ["tag_missing"] }], migrate: "keep" }),
      {
        status: 400,
        type: "invalid_request",
        code: "unknown_tag",
        param: "steps.0.add.0",
      },
    );
    expectError(await client.request("PUT", `/flows/${flow.id}`, { ...moved, migrate: "swap" }), {
      status: 400,
      type: "invalid_request",
      param: "migrate",
    });
    expectError(await client.request("PUT", "/flows/flow_missing", { ...moved, migrate: "keep" }), {
      status: 404,
      type: "not_found",
      code: "resource_missing",
      param: "flow_id",
    });
    expect((await client.get(`/flows/${flow.id}`)).body.version).toBe(3);

    // Versions, oldest first, each with its document, in pages.
    const page1 = await client.get(`/flows/${flow.id}/versions?limit=2`);
    expect(page1.status, page1.text).toBe(200);
    expect(page1.body.map((v: Json) => [v.version, v.current])).toEqual([
      [1, false],
      [2, false],
    ]);
    expect(page1.body[0].document.steps.map((s: Json) => s.id)).toEqual(flow.document.steps.map((s: Json) => s.id));
    const next = page1.headers.get("link")!.match(/<([^>]+)>/)![1]!;
    const page2 = await client.get(next.slice(next.indexOf("/api/v1") + "/api/v1".length));
    expect(page2.body.map((v: Json) => [v.version, v.current])).toEqual([[3, true]]);
    expect(page2.body[0].document).toEqual(v3.body.document);
    expect(page2.headers.get("link")).toBeNull();
    expectError(await client.get(`/flows/${flow.id}/versions?after=9`), { status: 400, type: "invalid_request", param: "after" });
  });

  it("moves a flow's status along its lifecycle, lists flows by status, and refuses a move back", async () => {
    const flow = await created("/flows", { ...welcome(), status: "draft" });
    expect(flow.status).toBe("draft");
    const drafts = await client.get("/flows?status=draft&limit=1000");
    expect(drafts.body.map((f: Json) => f.id)).toContain(flow.id);
    expect((await client.get("/flows?limit=1000")).body.map((f: Json) => f.id)).not.toContain(flow.id);

    for (const status of ["active", "paused", "active", "archived"]) {
      const res = await client.post(`/flows/${flow.id}/status`, { status });
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ id: flow.id, status, document: { status } });
    }
    expectError(await client.post(`/flows/${flow.id}/status`, { status: "active" }), {
      status: 409,
      type: "conflict",
      code: "invalid_flow_status",
      param: "status",
    });
    expectError(await client.post(`/flows/${flow.id}/status`, { status: "draft" }), {
      status: 400,
      type: "invalid_request",
      param: "status",
    });
    expectError(await client.request("PUT", `/flows/${flow.id}`, { ...flow.document, status: undefined, migrate: "keep" }), {
      status: 409,
      type: "conflict",
      code: "flow_archived",
      param: "flow_id",
    });
    const archived = await client.get("/flows?status=archived&limit=1000");
    expect(archived.body.map((f: Json) => f.id)).toContain(flow.id);
  });

  it("needs flows:write to write and flows:read to read", async () => {
    const flow = await created("/flows", welcome());
    expect((await readOnly.get(`/flows/${flow.id}`)).status).toBe(200);
    expect((await readOnly.get(`/flows/${flow.id}/versions`)).status).toBe(200);
    for (const res of [
      await readOnly.post("/flows", welcome()),
      await readOnly.request("PUT", `/flows/${flow.id}`, { ...flow.document, migrate: "keep" }),
      await readOnly.post(`/flows/${flow.id}/status`, { status: "paused" }),
    ]) {
      expect(expectError(res, { status: 403, type: "forbidden" }).message).toContain("flows:write");
    }
  });
});

describe("contacts listed, tags and fields deleted (D99)", () => {
  it("lists contacts in pages, filtered by tag, e-mail, phone and time; phone or e-mail alone still finds one", async () => {
    const listTag = (await created("/tags", { name: unique("Listed") })).id;
    const since = new Date(Date.now() - 1000).toISOString();
    const made: Json[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await client.post("/contacts", { phone: phone(), email: `list.${i}.${Date.now()}@example.com`, tags: [listTag] });
      expect(res.status, res.text).toBeLessThan(300);
      made.push(res.body);
    }
    const byTag: string[] = [];
    let path: string | null = `/contacts?tag_id=${listTag}&limit=2`;
    while (path) {
      const res: Json = await client.get(path);
      expect(res.status, res.text).toBe(200);
      expect(Array.isArray(res.body)).toBe(true);
      byTag.push(...res.body.map((c: Json) => c.id));
      const link: string | undefined = res.headers.get("link")?.match(/<([^>]+)>/)?.[1];
      path = link ? link.slice(link.indexOf("/api/v1") + "/api/v1".length) : null;
      if (path) expect(path).toContain(`tag_id=${listTag}`);
    }
    expect(byTag).toEqual(made.map((c) => c.id));

    const all = await client.get(`/contacts?created_after=${encodeURIComponent(since)}&limit=1000`);
    expect(all.body.map((c: Json) => c.id)).toEqual(expect.arrayContaining(made.map((c) => c.id)));
    const later = await client.get(`/contacts?updated_after=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`);
    expect(later.body).toEqual([]);

    const email = made[1]!.email.toUpperCase();
    const listed = await client.get(`/contacts?email=${encodeURIComponent(email)}&limit=10`);
    expect(listed.body.map((c: Json) => c.id)).toEqual([made[1]!.id]);
    const byPhone = await client.get(`/contacts?phone=${encodeURIComponent(made[2]!.phone)}&tag_id=${listTag}`);
    expect(byPhone.body.map((c: Json) => c.id)).toEqual([made[2]!.id]);
    // The lookup of the contract: the contact itself, or 404.
    const found = await client.get(`/contacts?email=${encodeURIComponent(email)}`);
    expect(found.body).toMatchObject({ id: made[1]!.id });
    expectError(await client.get(`/contacts?email=nobody.${Date.now()}@example.com`), { status: 404, type: "not_found", param: "email" });

    expectError(await client.get(`/contacts?created_after=yesterday`), { status: 400, type: "invalid_request", param: "created_after" });
    expectError(await client.get(`/contacts?after=ct_missing`), { status: 400, type: "invalid_request", param: "after" });
    expect((await readOnly.get(`/contacts?tag_id=${listTag}`)).status).toBe(200);
  });

  it("deletes a tag: refused while an active or paused flow names it, then gone from every contact without an event each", async () => {
    const doomed = (await created("/tags", { name: unique("Doomed") })).id;
    const contact = (await client.post("/contacts", { phone: phone(), tags: [doomed, tag] })).body;
    const flow = await created("/flows", {
      name: unique("Tagger"),
      status: "active",
      steps: [
        { type: "wait", duration: "P1D" },
        { type: "tag", remove: [tag, doomed] },
      ],
    });
    const refused = expectError(await client.request("DELETE", `/tags/${doomed}`), {
      status: 409,
      type: "conflict",
      code: "in_use",
      param: "id",
    });
    expect(refused.message).toContain(flow.id);
    expect(refused.message).toContain("steps.1.remove.1");
    expect((await client.post(`/flows/${flow.id}/status`, { status: "paused" })).status).toBe(200);
    expectError(await client.request("DELETE", `/tags/${doomed}`), { status: 409, type: "conflict", code: "in_use" });
    expect((await client.post(`/flows/${flow.id}/status`, { status: "archived" })).status).toBe(200);

    const before = await count(`SELECT count(*)::int AS n FROM events WHERE contact_id = $1`, [contact.id]);
    const res = await client.request("DELETE", `/tags/${doomed}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ id: doomed, deleted: true });
    expect((await client.get(`/contacts/${contact.id}`)).body.tags).toEqual([tag]);
    const after = await count(`SELECT count(*)::int AS n FROM events WHERE contact_id = $1`, [contact.id]);
    expect(after).toBe(before);
    expectError(await client.request("DELETE", `/tags/${doomed}`), {
      status: 404,
      type: "not_found",
      code: "resource_missing",
      param: "id",
    });
    expectError(await readOnly.request("DELETE", `/tags/${tag}`), { status: 403, type: "forbidden" });
  });

  it("deletes a custom field: refused while a flow names its key, then its value leaves every contact", async () => {
    const key = `doomed_${Date.now()}`;
    const def = await created("/custom-fields", { name: "Doomed", key, type: "text" });
    const contact = (await client.post("/contacts", { phone: phone(), fields: { [key]: "x", [field]: "kept" } })).body;
    const flow = await created("/flows", {
      name: unique("Fielder"),
      status: "active",
      steps: [{ type: "branch", if: { field: key, exists: true }, then: [{ type: "exit" }] }],
    });
    const refused = expectError(await client.request("DELETE", `/custom-fields/${def.id}`), {
      status: 409,
      type: "conflict",
      code: "in_use",
      param: "id",
    });
    expect(refused.message).toContain("steps.0.if.field");
    // Only the current version counts: once it no longer names the key, the field can go.
    const replaced = await client.request("PUT", `/flows/${flow.id}`, { ...flow.document, steps: [{ type: "exit" }], migrate: "keep" });
    expect(replaced.status, replaced.text).toBe(200);

    const res = await client.request("DELETE", `/custom-fields/${def.id}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ id: def.id, deleted: true });
    expect((await client.get(`/contacts/${contact.id}`)).body.fields).toEqual({ [field]: "kept" });
    const fields = (await client.get("/custom-fields?limit=1000")).body.map((f: Json) => f.key);
    expect(fields).not.toContain(key);
    expectError(await client.request("DELETE", `/custom-fields/${def.id}`), { status: 404, type: "not_found", param: "id" });
  });
});
