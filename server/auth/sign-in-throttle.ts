import type { Database } from "../db/client.ts";
import { estimate, WINDOW_MS, windowStart } from "../ratelimit/sliding-window.ts";

// Failed dashboard sign-ins slow the next attempts down (D51), counted in the rolling minute
// of the rate limiter (rate_limit_counters), per e-mail address and per client address:
// - per e-mail: the first few failures cost nothing; after them every attempt for that e-mail
//   waits before it is checked, longer with each failure, but it is still checked, so the real
//   user's right password works whatever others try (nobody is locked out by someone else);
// - per client address: past a number of failures in the minute, attempts from that address
//   are refused without being checked (one address cannot try many e-mails).
// A refused attempt runs the same password hash as a checked one, so it takes as long.

/** Failures per e-mail in the rolling minute before attempts for it are slowed. */
export const FREE_FAILURES_PER_EMAIL = 5;
/** Added wait per failure past the free ones, and the longest wait. */
export const DELAY_PER_FAILURE_MS = 1_000;
export const MAX_DELAY_MS = 5_000;
/** Failures per client address in the rolling minute after which its attempts are refused. */
export const FAILURES_PER_ADDRESS = 30;

export type Throttle = { delayMs: number; refused: boolean };

const emailBucket = (email: string) => `sign-in-failures:email:${email}`;
const addressBucket = (address: string) => `sign-in-failures:address:${address}`;

const COUNTS = `SELECT key_hash, window_start, count FROM rate_limit_counters WHERE key_hash IN ($1, $2) AND window_start >= $3`;

const RECORD = `
  INSERT INTO rate_limit_counters (key_hash, window_start, count) VALUES ($1, $3, 1), ($2, $3, 1)
  ON CONFLICT (key_hash, window_start) DO UPDATE SET count = rate_limit_counters.count + 1`;

/** How this attempt is treated, from the failures counted so far. */
export async function signInThrottle(database: Database, email: string, address: string): Promise<Throttle> {
  const now = Date.now();
  const start = windowStart(now);
  const rows = await database.query<{ key_hash: string; window_start: string | number; count: number }>(COUNTS, [
    emailBucket(email),
    addressBucket(address),
    start - WINDOW_MS,
  ]);
  const failures = (bucket: string) => {
    const of = (at: number) => Number(rows.find((r) => r.key_hash === bucket && Number(r.window_start) === at)?.count ?? 0);
    return estimate({ current: of(start), previous: of(start - WINDOW_MS) }, now);
  };
  const excess = Math.floor(failures(emailBucket(email))) - FREE_FAILURES_PER_EMAIL;
  return {
    delayMs: excess < 0 ? 0 : Math.min((excess + 1) * DELAY_PER_FAILURE_MS, MAX_DELAY_MS),
    refused: failures(addressBucket(address)) >= FAILURES_PER_ADDRESS,
  };
}

export async function recordSignInFailure(database: Database, email: string, address: string): Promise<void> {
  await database.query(RECORD, [emailBucket(email), addressBucket(address), windowStart(Date.now())]);
}
