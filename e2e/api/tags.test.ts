import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { api, expectError, fixtures } from "../support/client.ts";

// POST /tags and GET /tags: spec "Tags", D3, D10, D11.
const fx = fixtures();
const client = api(fx.main!.keys.test);
const unique = (label: string) => `${label} ${randomUUID().slice(0, 8)}`;

describe("POST /tags", () => {
  it("creates a tag: 201, tag_ id, color stored lower-case", async () => {
    const name = unique("VIP");
    const res = await client.post("/tags", { name: `  ${name}  `, color: "#FFAA00" });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: expect.stringMatching(/^tag_/), name, color: "#ffaa00", created_at: expect.any(String) });
    expect(new Date(res.body.created_at).toISOString()).toBe(res.body.created_at);
  });

  it("accepts a missing or null color", async () => {
    expect((await client.post("/tags", { name: unique("plain") })).body.color).toBeNull();
    expect((await client.post("/tags", { name: unique("nul"), color: null })).body.color).toBeNull();
  });

  it.each([
    { name: "missing name", body: {}, param: "name", code: "parameter_missing" },
    { name: "blank name", body: { name: "   " }, param: "name" },
    { name: "name over 64 characters", body: { name: "x".repeat(65) }, param: "name" },
    { name: "name of the wrong type", body: { name: 42 }, param: "name" },
    { name: "color without #", body: { name: "c1", color: "ff0000" }, param: "color" },
    { name: "short color", body: { name: "c2", color: "#fff" }, param: "color" },
    { name: "named color", body: { name: "c3", color: "red" }, param: "color" },
  ])("$name: 400 with param", async ({ body, param, code }) => {
    expectError(await client.post("/tags", body), { status: 400, type: "invalid_request", param, code });
  });

  it("answers 409 on a name that exists, case-insensitively after trimming (D11)", async () => {
    const name = unique("Dup");
    expect((await client.post("/tags", { name })).status).toBe(201);
    const res = await client.post("/tags", { name: `  ${name.toUpperCase()} ` });
    expectError(res, { status: 409, type: "conflict", code: "tag_name_taken", param: "name" });
  });

  it("keeps names per workspace", async () => {
    const name = unique("Shared name");
    expect((await client.post("/tags", { name })).status).toBe(201);
    expect((await api(fx.other!.keys.test).post("/tags", { name })).status).toBe(201);
  });
});

describe("GET /tags (D10)", () => {
  const pages = api(fx.pages!.keys.test);

  it("lists in created_at, id order, pages with limit/after and a Link header", async () => {
    const created: string[] = [];
    for (let i = 0; i < 5; i++) created.push((await pages.post("/tags", { name: `page ${i}` })).body.id);
    const seen: string[] = [];
    let path: string | null = "/tags?limit=2";
    let requests = 0;
    while (path) {
      const res: { status: number; body: any; headers: Headers } = await pages.get(path);
      expect(res.status).toBe(200);
      expect(Array.isArray(res.body)).toBe(true);
      seen.push(...res.body.map((t: { id: string }) => t.id));
      const link: string | null = res.headers.get("link");
      requests++;
      if (link) {
        expect(link).toMatch(/^<http:\/\/localhost:\d+\/api\/v1\/tags\?limit=2&after=tag_\w+>; rel="next"$/);
        path = new URL(/<([^>]+)>/.exec(link)![1]!).search.replace(/^/, "/tags");
      } else path = null;
    }
    expect(seen).toEqual(created);
    expect(requests).toBe(3);
    const all = await pages.get("/tags");
    expect(all.headers.get("link")).toBeNull();
    expect(all.body.map((t: { id: string }) => t.id)).toEqual(created);
  });

  it.each([
    { query: "limit=0", param: "limit" },
    { query: "limit=1001", param: "limit" },
    { query: "limit=abc", param: "limit" },
    { query: "after=tag_doesnotexist", param: "after" },
  ])("refuses $query with param $param", async ({ query, param }) => {
    expectError(await pages.get(`/tags?${query}`), { status: 400, type: "invalid_request", param });
  });

  it("never shows another workspace's tags", async () => {
    const name = unique("mine only");
    await client.post("/tags", { name });
    const res = await api(fx.other!.keys.test).get("/tags?limit=1000");
    expect(res.body.some((t: { name: string }) => t.name === name)).toBe(false);
  });
});
