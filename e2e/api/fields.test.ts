import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { api, expectError, fixtures } from "../support/client.ts";

// POST /custom-fields and GET /custom-fields: spec "Custom fields", D4, D10, D11.
const fx = fixtures();
const client = api(fx.main!.keys.test);
const key = () => `k_${randomUUID().replace(/-/g, "").slice(0, 12)}`;

describe("POST /custom-fields", () => {
  it("creates a field with type text by default: 201, field_ id", async () => {
    const k = key();
    const res = await client.post("/custom-fields", { name: " Plan ", key: k });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: expect.stringMatching(/^field_/), name: "Plan", key: k, type: "text", created_at: expect.any(String) });
  });

  it.each(["number", "date", "boolean", "text"])("accepts type %s", async (type) => {
    expect((await client.post("/custom-fields", { name: "T", key: key(), type })).body.type).toBe(type);
  });

  it.each([
    { name: "missing key", body: { name: "x" }, param: "key", code: "parameter_missing" },
    { name: "missing name", body: { key: "abc" }, param: "name", code: "parameter_missing" },
    { name: "key with a capital", body: { name: "x", key: "Plan" }, param: "key" },
    { name: "key starting with a digit", body: { name: "x", key: "1plan" }, param: "key" },
    { name: "key with a dash", body: { name: "x", key: "my-plan" }, param: "key" },
    { name: "key of 65 characters", body: { name: "x", key: `a${"b".repeat(64)}` }, param: "key" },
    { name: "built-in key name", body: { name: "x", key: "name" }, param: "key" },
    { name: "built-in key contact_id", body: { name: "x", key: "contact_id" }, param: "key" },
    { name: "unknown type", body: { name: "x", key: "abc", type: "json" }, param: "type" },
    { name: "name over 100 characters", body: { name: "x".repeat(101), key: "abc" }, param: "name" },
  ])("$name: 400 with param", async ({ body, param, code }) => {
    expectError(await client.post("/custom-fields", body), { status: 400, type: "invalid_request", param, code });
  });

  it("accepts a key of exactly 64 characters", async () => {
    expect(
      (await client.post("/custom-fields", { name: "x", key: `a${randomUUID().replace(/-/g, "").slice(0, 20)}${"b".repeat(43)}` })).status,
    ).toBe(201);
  });

  it("answers 409 on an existing key (D11)", async () => {
    const k = key();
    expect((await client.post("/custom-fields", { name: "A", key: k })).status).toBe(201);
    expectError(await client.post("/custom-fields", { name: "B", key: k, type: "number" }), {
      status: 409,
      type: "conflict",
      code: "field_key_taken",
      param: "key",
    });
  });

  it("needs fields:write", async () => {
    expectError(await api(fx.main!.keys.readOnly).post("/custom-fields", { name: "A", key: key() }), {
      status: 403,
      type: "forbidden",
      code: "missing_scope",
    });
  });
});

describe("GET /custom-fields (D10)", () => {
  it("lists the workspace's fields in creation order and pages them", async () => {
    const pages = api(fx.pages!.keys.test);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await pages.post("/custom-fields", { name: `F${i}`, key: key() })).body.id);
    const first = await pages.get("/custom-fields?limit=2");
    expect(first.body.map((f: { id: string }) => f.id)).toEqual(ids.slice(0, 2));
    expect(first.headers.get("link")).toContain(`after=${ids[1]}`);
    const second = await pages.get(`/custom-fields?limit=2&after=${ids[1]}`);
    expect(second.body.map((f: { id: string }) => f.id)).toEqual([ids[2]]);
    expect(second.headers.get("link")).toBeNull();
  });
});
