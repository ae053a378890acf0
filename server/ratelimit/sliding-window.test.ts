import { describe, expect, it } from "vitest";
import { decide, WINDOW_MS } from "./sliding-window.ts";

// D24: 120 requests per rolling 60 seconds; Reset and Retry-After in whole seconds.
describe("sliding window (D24)", () => {
  const t0 = 10 * WINDOW_MS; // a window boundary

  it("allows exactly the limit in a fresh window", () => {
    expect(decide({ current: 120, previous: 0 }, 120, t0 + 1000).allowed).toBe(true);
    expect(decide({ current: 121, previous: 0 }, 120, t0 + 1000).allowed).toBe(false);
  });

  it("counts the previous window by its overlap with the rolling minute", () => {
    // 15 s into the window, 75% of the previous 120 still counts: 90 + 30 = 120.
    expect(decide({ current: 30, previous: 120 }, 120, t0 + 15_000).allowed).toBe(true);
    expect(decide({ current: 31, previous: 120 }, 120, t0 + 15_000).allowed).toBe(false);
  });

  it("reports remaining, reset and retry-after in whole seconds", () => {
    const d = decide({ current: 20, previous: 0 }, 120, t0 + 59_500);
    expect(d).toMatchObject({ allowed: true, remaining: 100, reset: 1, retryAfter: 0 });
    const full = decide({ current: 121, previous: 0 }, 120, t0 + 10_000);
    expect(full.allowed).toBe(false);
    expect(full.remaining).toBe(0);
    // The 120 stay in the current window until t0+60s; then they weigh (1 - f) * 120 and one
    // more fits as soon as that drops below 120, i.e. one second into the next window.
    expect(full.retryAfter).toBe(51);
    // On a refusal RateLimit-Reset says the same as Retry-After.
    expect(full.reset).toBe(51);
  });
});
