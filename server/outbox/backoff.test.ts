import { describe, expect, it } from "vitest";
import { backoffMs, RETRY_CAP_MS } from "./backoff.ts";

describe("retry backoff", () => {
  it("doubles per attempt, within [half, full] of the ceiling", () => {
    expect(backoffMs(1, () => 0)).toBe(1_000);
    expect(backoffMs(1, () => 1)).toBe(2_000);
    expect(backoffMs(3, () => 0)).toBe(4_000);
    expect(backoffMs(3, () => 1)).toBe(8_000);
  });

  it("is capped", () => {
    expect(backoffMs(40, () => 1)).toBe(RETRY_CAP_MS);
  });

  it("spreads retries (jitter)", () => {
    const values = new Set(Array.from({ length: 50 }, () => backoffMs(5)));
    expect(values.size).toBeGreaterThan(30);
  });
});
