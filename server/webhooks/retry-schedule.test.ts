import { afterEach, describe, expect, it, vi } from "vitest";

// D33: retries after about 10 s, 1 min, 5 min, 30 min, 2 h, 6 h, 12 h and 24 h: nine attempts
// in all, each delivery answered within 10 s. The defaults of WEBHOOK_RETRY_SCHEDULE and
// WEBHOOK_TIMEOUT_SECONDS (docs/webhooks.md).
describe("webhook retry schedule", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.resetModules();
  });

  it("defaults to D33's schedule and 10-second timeout", async () => {
    vi.stubEnv("WEBHOOK_RETRY_SCHEDULE", "");
    vi.stubEnv("WEBHOOK_TIMEOUT_SECONDS", "");
    vi.stubEnv("AUTH_SECRET", "unit-test-secret-0123456789");
    const { env } = await import("../lib/env.ts");
    expect(env().webhookRetryDelaysMs).toEqual([10, 60, 300, 1800, 7200, 21600, 43200, 86400].map((s) => s * 1000));
    expect(env().webhookRetryDelaysMs.length + 1).toBe(9);
    expect(env().webhookTimeoutMs).toBe(10_000);
  });

  it("refuses a malformed schedule", async () => {
    vi.stubEnv("WEBHOOK_RETRY_SCHEDULE", "10,soon");
    vi.stubEnv("AUTH_SECRET", "unit-test-secret-0123456789");
    const { env } = await import("../lib/env.ts");
    expect(() => env()).toThrow(/WEBHOOK_RETRY_SCHEDULE/);
  });
});

describe("retryDelayMs", () => {
  const delays = [10, 60, 300, 1800, 7200, 21600, 43200, 86400].map((s) => s * 1000);

  it("waits D33's delay with ±10 % jitter after each of the first eight attempts", async () => {
    const { retryDelayMs } = await import("./deliver-webhook.ts");
    expect(retryDelayMs(1, delays, () => 0)).toBe(9_000);
    expect(retryDelayMs(1, delays, () => 1)).toBe(11_000);
    expect(retryDelayMs(2, delays, () => 0.5)).toBe(60_000);
    expect(retryDelayMs(8, delays, () => 0.5)).toBe(86_400_000);
  });

  it("gives up after the ninth attempt", async () => {
    const { retryDelayMs } = await import("./deliver-webhook.ts");
    expect(retryDelayMs(9, delays)).toBeNull();
  });
});
