// Sliding-window rate limit (D24): the count of the current 60-second window plus the
// previous window's count weighted by how much of it still overlaps the rolling minute.
// Pure arithmetic here; the counters live in the database (consume-rate-limit.ts).

export const WINDOW_MS = 60_000;

export type WindowCounts = { current: number; previous: number };

export type RateDecision = {
  allowed: boolean;
  limit: number;
  remaining: number;
  /**
   * Whole seconds until the rolling window has fully moved past the current one; on a refusal,
   * until a request is allowed again, the same as `retryAfter`, so `RateLimit-Reset` and
   * `Retry-After` agree on a 429.
   */
  reset: number;
  /** Whole seconds until a request would be allowed again (429 only). */
  retryAfter: number;
};

export function windowStart(nowMs: number): number {
  return Math.floor(nowMs / WINDOW_MS) * WINDOW_MS;
}

/** The requests counted in the rolling minute ending now. */
export function estimate(counts: WindowCounts, nowMs: number): number {
  const elapsed = (nowMs - windowStart(nowMs)) / WINDOW_MS;
  return counts.previous * (1 - elapsed) + counts.current;
}

/** `counts.current` includes the request being decided. */
export function decide(counts: WindowCounts, limit: number, nowMs: number): RateDecision {
  const used = estimate(counts, nowMs);
  const allowed = used <= limit;
  const remaining = Math.max(0, Math.floor(limit - used));
  if (!allowed) {
    const wait = retryAfter(counts, limit, nowMs);
    return { allowed, limit, remaining, reset: wait, retryAfter: wait };
  }
  const reset = Math.max(1, Math.ceil((windowStart(nowMs) + WINDOW_MS - nowMs) / 1000));
  return { allowed, limit, remaining, reset, retryAfter: 0 };
}

/** The first whole second at which one more request fits, if no other request arrives. */
function retryAfter(counts: WindowCounts, limit: number, nowMs: number): number {
  const start = windowStart(nowMs);
  // The rejected request is not counted (consume-rate-limit.ts gives it back).
  const current = counts.current - 1;
  for (let s = 1; s <= 120; s++) {
    const at = nowMs + s * 1000;
    const shifted =
      windowStart(at) === start
        ? { current, previous: counts.previous }
        : { current: 0, previous: windowStart(at) === start + WINDOW_MS ? current : 0 };
    if (estimate({ ...shifted, current: shifted.current + 1 }, at) <= limit) return s;
  }
  return 120;
}
