import type { Database } from "../db/client.ts";
import type { Columns } from "../db/rows.ts";
import { estimate, WINDOW_MS, windowStart } from "../ratelimit/sliding-window.ts";

// Failed dashboard sign-ins slow the next attempts down (D51), counted in the rolling minute
// of the rate limiter (rate_limit_counters), per e-mail address and per client address
// (lib/client-address.ts). Past a few free failures, every attempt for that e-mail, or from
// that address, waits before it is checked, longer with each failure up to a cap; but it is
// always checked, so the real user's right password works whatever others try. An attempt
// is never refused unchecked: every client behind one load balancer may share one address
// (TRUST_PROXY unset), and one attacker there must not lock all of them out. The wait is
// the longer of the two; the check that follows it runs the same password hash whether or
// not the user exists (verify-credentials.ts).

/** Failures per e-mail in the rolling minute before attempts for it are slowed, and the added wait per failure past them. */
export const FREE_FAILURES_PER_EMAIL = 5;
export const DELAY_PER_EMAIL_FAILURE_MS = 1_000;
/** The same per client address: more free failures (people share addresses), a gentler slope. */
export const FREE_FAILURES_PER_ADDRESS = 10;
export const DELAY_PER_ADDRESS_FAILURE_MS = 250;
/** The longest wait, whatever the failures. */
export const MAX_DELAY_MS = 5_000;

const emailBucket = (email: string) => `sign-in-failures:email:${email}`;
const addressBucket = (address: string) => `sign-in-failures:address:${address}`;

const COUNTS = `SELECT key_hash, window_start, count FROM rate_limit_counters WHERE key_hash IN ($1, $2) AND window_start >= $3`;

const RECORD = `
  INSERT INTO rate_limit_counters (key_hash, window_start, count) VALUES ($1, $3, 1), ($2, $3, 1)
  ON CONFLICT (key_hash, window_start) DO UPDATE SET count = rate_limit_counters.count + 1`;

/** The wait for `failures` in the minute: none for the free ones, then growing, capped. */
function delayFor(failures: number, free: number, perFailureMs: number): number {
  const excess = Math.floor(failures) - free;
  return excess < 0 ? 0 : Math.min((excess + 1) * perFailureMs, MAX_DELAY_MS);
}

/** How long this attempt waits before it is checked, from the failures counted so far. */
export async function signInDelayMs(database: Database, email: string, address: string): Promise<number> {
  const now = Date.now();
  const start = windowStart(now);
  // window_start is a bigint: text through pg, a number through PGlite.
  const rows = await database.query<Columns<"rate_limit_counters", "key_hash" | "count"> & { window_start: string | number }>(COUNTS, [
    emailBucket(email),
    addressBucket(address),
    start - WINDOW_MS,
  ]);
  const failures = (bucket: string) => {
    const of = (at: number) => Number(rows.find((r) => r.key_hash === bucket && Number(r.window_start) === at)?.count ?? 0);
    return estimate({ current: of(start), previous: of(start - WINDOW_MS) }, now);
  };
  return Math.max(
    delayFor(failures(emailBucket(email)), FREE_FAILURES_PER_EMAIL, DELAY_PER_EMAIL_FAILURE_MS),
    delayFor(failures(addressBucket(address)), FREE_FAILURES_PER_ADDRESS, DELAY_PER_ADDRESS_FAILURE_MS),
  );
}

export async function recordSignInFailure(database: Database, email: string, address: string): Promise<void> {
  await database.query(RECORD, [emailBucket(email), addressBucket(address), windowStart(Date.now())]);
}
