import { describe, expect, it } from "vitest";
import { inject } from "vitest";
import { api, expectError, fixtures } from "../support/client.ts";
import { startServers } from "../support/server.ts";

// D24: per key, a rolling 60 s window, shared by every instance; headers on every response.
const fx = fixtures();

describe("rate limit (D24)", () => {
  it("allows the plan's limit per key, then answers 429 with Retry-After", async () => {
    const client = api(fx.limited!.keys.a);
    const remaining: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await client.get("/");
      expect(res.status).toBe(200);
      expect(res.headers.get("ratelimit-limit")).toBe("5");
      remaining.push(res.headers.get("ratelimit-remaining")!);
      expect(Number(res.headers.get("ratelimit-reset"))).toBeGreaterThanOrEqual(1);
      expect(res.headers.get("retry-after")).toBeNull();
    }
    expect(remaining).toEqual(["4", "3", "2", "1", "0"]);
    const refused = await client.get("/");
    expectError(refused, { status: 429, type: "rate_limit", code: "rate_limited", param: null });
    expect(refused.headers.get("ratelimit-remaining")).toBe("0");
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(120);
    // Both headers say when to come back, in the same whole seconds.
    expect(refused.headers.get("ratelimit-reset")).toBe(refused.headers.get("retry-after"));

    // Per key: another key of the same workspace has its own allowance.
    const other = await api(fx.limited!.keys.b).get("/");
    expect(other.status).toBe(200);
    expect(other.headers.get("ratelimit-remaining")).toBe("4");
  });

  it("stays exact under a burst of concurrent requests of one key", async () => {
    const results = await Promise.all(Array.from({ length: 25 }, () => api(fx.burst!.keys.a).get("/")));
    expect(results.filter((r) => r.status === 200)).toHaveLength(10);
    expect(results.filter((r) => r.status === 429)).toHaveLength(15);
    const remaining = results.filter((r) => r.status === 200).map((r) => Number(r.headers.get("ratelimit-remaining")));
    expect(remaining.sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it.runIf(inject("api").engine === "postgres")(
    "holds across several server processes sharing one database",
    async () => {
      const servers = await startServers(2, inject("api").env);
      try {
        const urls = [inject("api").baseUrl, ...servers.map((s) => s.url)];
        const key = fx.shared!.keys.a!;
        const results = await Promise.all(Array.from({ length: 45 }, (_, i) => api(key, urls[i % urls.length]).get("/")));
        const ok = results.filter((r) => r.status === 200).length;
        const limited = results.filter((r) => r.status === 429).length;
        expect({ ok, limited }).toEqual({ ok: 30, limited: 15 });
      } finally {
        await Promise.all(servers.map((s) => s.stop()));
      }
    },
    120_000,
  );
});
