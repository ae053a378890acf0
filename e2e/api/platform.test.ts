import { describe, expect, it } from "vitest";
import { api, expectError, fixtures } from "../support/client.ts";

// The platform rules every endpoint shares, over real HTTP: spec "Authentication", "Errors",
// D9, D12, D21-D23, D26, D29.
const fx = fixtures();
const main = fx.main!;

describe("GET / key check (D9, D12)", () => {
  it.each(["", "/"])("answers at /api/v1%s without redirect", async (path) => {
    const res = await api(main.keys.test).get(path);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, version: "1.0.0", workspace: main.id, mode: "test" });
  });

  it("reports the live mode of a live key, which needs no scope", async () => {
    const live = await api(main.keys.live).get("/");
    expect(live.body).toEqual({ ok: true, version: "1.0.0", workspace: main.id, mode: "live" });
    const narrow = await api(main.keys.readOnly).get("/");
    expect(narrow.status).toBe(200);
  });

  it("returns a Request-Id on every response, echoing a well-formed one", async () => {
    const res = await api(main.keys.test).get("/");
    expect(res.headers.get("request-id")).toMatch(/^req_\w{20}$/);
    const echoed = await api(main.keys.test).get("/", { headers: { "Request-Id": "client-trace-12345" } });
    expect(echoed.headers.get("request-id")).toBe("client-trace-12345");
    const err = await api().get("/");
    expect(err.headers.get("request-id")).toMatch(/^req_/);
  });
});

describe("authentication (spec Authentication 5, D21)", () => {
  const cases = [
    { name: "no Authorization header", key: undefined, code: "missing_api_key" },
    { name: "malformed key", key: "not-a-key", code: "invalid_api_key" },
    { name: "unknown key of the right shape", key: `svc_test_${"A".repeat(40)}`, code: "invalid_api_key" },
    { name: "revoked key", key: main.keys.revoked, code: "invalid_api_key" },
  ];
  it.each(cases)("$name: 401 authentication", async ({ key, code }) => {
    const res = await api(key).get("/");
    const error = expectError(res, { status: 401, type: "authentication", code, param: null });
    // The link names the code's own row of /docs/errors (issue 13).
    expect(error.doc_url).toMatch(new RegExp(`^http://localhost:\\d+/docs/errors#code-${code}$`));
    expect(res.headers.get("ratelimit-limit")).toBeTruthy();
  });

  it("accepts the Bearer scheme case-insensitively", async () => {
    const res = await api(undefined).get("/", { headers: { Authorization: `bearer ${main.keys.test}` } });
    expect(res.status).toBe(200);
  });
});

describe("plan gating (D22)", () => {
  it.each(["test", "live"])("a %s key of a plan without API access gets 403 forbidden", async (mode) => {
    const res = await api(fx.free!.keys[mode]).get("/");
    const error = expectError(res, { status: 403, type: "forbidden", code: "plan_without_api_access" });
    expect(error.message).toMatch(/plan/i);
  });
});

describe("scopes (D22)", () => {
  it("a key lacking the endpoint's scope gets 403 naming the scope", async () => {
    const res = await api(main.keys.readOnly).get("/tags");
    const error = expectError(res, { status: 403, type: "forbidden", code: "missing_scope" });
    expect(error.message).toContain("tags:read");
  });
});

describe("browser rule and CORS (spec Authentication 4, D23)", () => {
  it("refuses a live key with an Origin header", async () => {
    const res = await api(main.keys.live).get("/", { headers: { Origin: "https://shop.example" } });
    expectError(res, { status: 403, type: "forbidden", code: "live_key_in_browser" });
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("accepts a test key from a browser, with CORS headers", async () => {
    const res = await api(main.keys.test).get("/", { headers: { Origin: "https://shop.example" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-expose-headers")).toContain("RateLimit-Remaining");
  });

  it.each(["/", "/tags", "/messages", "/no/such/path"])("answers the preflight of %s without a key", async (path) => {
    const res = await api().request("OPTIONS", path, undefined, {
      headers: {
        Origin: "https://shop.example",
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization,content-type,idempotency-key",
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-headers")).toMatch(/Authorization.*Content-Type.*Idempotency-Key/);
    expect(res.headers.get("access-control-allow-methods")).toContain("POST");
  });
});

describe("error body for every failure (D26, D29)", () => {
  const client = () => api(main.keys.test);

  it("unknown route: 404 not_found", async () => {
    expectError(await client().get("/no/such/thing"), { status: 404, type: "not_found", code: "route_not_found", param: null });
  });

  it("wrong method on a known route: 405 method_not_allowed with Allow (D79)", async () => {
    const res = await client().request("DELETE", "/tags");
    const error = expectError(res, { status: 405, type: "invalid_request", code: "method_not_allowed" });
    expect(error.message).toContain("GET, POST");
    expect(res.headers.get("allow")).toBe("GET, POST");
    expect((await client().request("PUT", "/messages/msg_1")).headers.get("allow")).toBe("GET");
  });

  it("an unknown query parameter: 400 unknown_parameter naming it, on lists and on POSTs (D79)", async () => {
    expectError(await client().get("/messages?stauts=failed"), {
      status: 400,
      type: "invalid_request",
      code: "unknown_parameter",
      param: "stauts",
    });
    expectError(await client().get("/tags?limit=5&colour=red"), {
      status: 400,
      type: "invalid_request",
      code: "unknown_parameter",
      param: "colour",
    });
    expectError(await client().post("/tags?dry=1", { name: `Q ${Date.now()}` }), {
      status: 400,
      type: "invalid_request",
      code: "unknown_parameter",
      param: "dry",
    });
    expect((await client().get("/messages?status=failed&limit=1")).status).toBe(200);
  });

  it("a 401 carries WWW-Authenticate: Bearer (D79)", async () => {
    const res = await api("svc_test_nope").get("/messages");
    expectError(res, { status: 401, type: "authentication" });
    expect(res.headers.get("www-authenticate")).toBe("Bearer");
    expect((await api().get("/messages")).headers.get("www-authenticate")).toBe("Bearer");
  });

  it.each([
    { name: "broken JSON", raw: '{"name": ' },
    { name: "a JSON array", raw: "[1,2]" },
    { name: "a JSON string", raw: '"tag"' },
  ])("$name body: 400 invalid_json", async ({ raw }) => {
    const res = await client().post("/tags", undefined, { rawBody: raw, headers: { "Content-Type": "application/json" } });
    expectError(res, { status: 400, type: "invalid_request", code: "invalid_json" });
  });

  it("a body over 256 KiB: 400 body_too_large, declared or streamed", async () => {
    const big = JSON.stringify({ name: "x".repeat(256 * 1024) });
    expectError(await client().post("/tags", undefined, { rawBody: big }), {
      status: 400,
      type: "invalid_request",
      code: "body_too_large",
    });
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(big));
        controller.close();
      },
    });
    const res = await fetch(`${(await import("vitest")).inject("api").baseUrl}/api/v1/tags`, {
      method: "POST",
      headers: { Authorization: `Bearer ${main.keys.test}`, "Content-Type": "application/json" },
      body: stream,
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(400);
    expect((await res.json()).error.code).toBe("body_too_large");
  });

  it("a body of exactly 256 KiB is read (and then validated)", async () => {
    const name = "x".repeat(256 * 1024 - '{"name":""}'.length);
    const res = await client().post("/tags", { name });
    expectError(res, { status: 400, type: "invalid_request", code: "parameter_invalid", param: "name" });
  });

  it("a missing required field names it in param", async () => {
    expectError(await client().post("/tags", {}), { status: 400, type: "invalid_request", code: "parameter_missing", param: "name" });
  });
});
