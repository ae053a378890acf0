import type { Database } from "../db/client.ts";
import type { Columns } from "../db/rows.ts";
import { AppError } from "../lib/errors.ts";
import { sha256Hex } from "../lib/crypto.ts";
import { decide, windowStart, WINDOW_MS, type RateDecision } from "../ratelimit/sliding-window.ts";
import { effectiveLimits } from "../workspaces/plans.ts";
import type { Caller } from "../lib/caller.ts";

const KEY_FORMAT = /^svc_(test|live)_[0-9A-Za-z]{32,}$/;

// The key's and its workspace's columns, typed from the schema; the enums are read as text,
// and the counts come from the rate-limit rows.
type Row = Columns<"api_keys", "id" | "workspace_id" | "mode" | "scopes"> &
  Columns<"workspaces", "plan" | "rate_limit" | "default_country"> & {
    revoked: boolean;
    templates_version: string;
    current: number | null;
    previous: number | null;
  };

// Every request of a key increments the same counter row, so concurrent requests queue on its
// row lock, and with a synchronous commit each holds it through a WAL flush (what that caps:
// docs/api-platform.md, "Rate limit"). The counters are ephemeral, so these statements commit
// asynchronously (`synchronous_commit` off for their own transaction only): the lock is held
// for microseconds, and a database crash forgets at most the last fraction of a second of
// counts (docs/api-platform.md).
const RELAXED = `relaxed AS (SELECT set_config('synchronous_commit', 'off', true))`;

// The hot path of every API call, in one statement and one round trip: find the key and its
// workspace's plan, count the request in the key's window, read the previous window, and
// touch `last_used_at` at most once a minute (D21, D24). Revocation is read from the row on
// every call, so it takes effect at once on every instance.
const KEY_CHECK = `
  WITH ${RELAXED}, k AS (
    SELECT k.id, k.workspace_id, k.mode::text AS mode, k.scopes, k.revoked_at IS NOT NULL AS revoked,
           w.plan::text AS plan, w.rate_limit, w.default_country, w.templates_version::text AS templates_version
    FROM api_keys k JOIN workspaces w ON w.id = k.workspace_id
    WHERE k.hash = $1
  ), touch AS (
    UPDATE api_keys SET last_used_at = now()
    WHERE hash = $1 AND revoked_at IS NULL AND (last_used_at IS NULL OR last_used_at < now() - interval '60 seconds')
    RETURNING 1
  ), hit AS (
    INSERT INTO rate_limit_counters (key_hash, window_start, count)
    SELECT $1, $2, $4::int FROM k WHERE NOT k.revoked
    ON CONFLICT (key_hash, window_start) DO UPDATE SET count = rate_limit_counters.count + EXCLUDED.count
    RETURNING count
  )
  SELECT k.*, (SELECT count FROM hit) AS current,
    (SELECT count FROM rate_limit_counters WHERE key_hash = $1 AND window_start = $3) AS previous
  FROM k, relaxed`;

const ANONYMOUS_HIT = `
  WITH ${RELAXED}, hit AS (
    INSERT INTO rate_limit_counters (key_hash, window_start, count) VALUES ($1, $2, 1)
    ON CONFLICT (key_hash, window_start) DO UPDATE SET count = rate_limit_counters.count + 1
    RETURNING count
  )
  SELECT (SELECT count FROM hit) AS current,
    (SELECT count FROM rate_limit_counters WHERE key_hash = $1 AND window_start = $3) AS previous
  FROM relaxed`;

const GIVE_BACK = `
  WITH ${RELAXED}
  UPDATE rate_limit_counters SET count = count - $3 FROM relaxed WHERE key_hash = $1 AND window_start = $2`;

type Hit = { row: Row | undefined; current: number | null; now: number; start: number };
type Batch = { hash: string; waiters: { resolve: (hit: Hit) => void; reject: (err: unknown) => void }[] };

// Requests of one key that arrive while that key's statement is in flight wait for the next
// one, which counts them all at once (count + n) and gives each its own position in the
// window. Each request is still decided on a count read from the database after it arrived,
// so the limit stays exact across instances and a revocation is seen at once; the key's row
// is updated once per round trip instead of once per request (docs/api-platform.md).
const queued = new Map<string, Batch>();
const inFlight = new Set<string>();

function countRequest(database: Database, hash: string): Promise<Hit> {
  return new Promise((resolve, reject) => {
    let batch = queued.get(hash);
    if (!batch) queued.set(hash, (batch = { hash, waiters: [] }));
    batch.waiters.push({ resolve, reject });
    if (!inFlight.has(hash)) void flush(database, hash);
  });
}

async function flush(database: Database, hash: string): Promise<void> {
  const batch = queued.get(hash);
  if (!batch) return;
  queued.delete(hash);
  inFlight.add(hash);
  const n = batch.waiters.length;
  try {
    const now = Date.now();
    const start = windowStart(now);
    const [row] = await database.query<Row>(KEY_CHECK, [hash, start, start - WINDOW_MS, n]);
    const total = row?.current === null || row?.current === undefined ? null : Number(row.current);
    batch.waiters.forEach((w, i) => w.resolve({ row, current: total === null ? null : total - n + i + 1, now, start }));
  } catch (err) {
    for (const w of batch.waiters) w.reject(err);
  } finally {
    inFlight.delete(hash);
    if (queued.has(hash)) void flush(database, hash);
  }
}

export async function authenticateKey(
  database: Database,
  bearer: string | undefined,
): Promise<{ caller: Extract<Caller, { kind: "key" }>; apiAccess: boolean; rate: RateDecision }> {
  if (!bearer) {
    throw new AppError("missing_api_key", "No API key provided. Send it as `Authorization: Bearer svc_live_…`.");
  }
  if (!KEY_FORMAT.test(bearer)) throw invalidKey();
  const hash = sha256Hex(bearer);
  const { row, current, now, start } = await countRequest(database, hash);
  if (!row || row.revoked || current === null) throw invalidKey();
  const limits = effectiveLimits({
    plan: row.plan,
    rateLimit: row.rate_limit,
    dailyLimit: null,
    monthlyLimit: null,
    monthlyLimitSet: false,
  });
  const rate = decide({ current, previous: Number(row.previous ?? 0) }, limits.rateLimit, now);
  if (!rate.allowed) await database.query(GIVE_BACK, [hash, start, 1]);
  return {
    // The workspace's default phone country (D1) and templates_version (`lookUpTemplate`) come with the key.
    caller: {
      kind: "key",
      keyId: row.id,
      workspaceId: row.workspace_id,
      mode: row.mode,
      scopes: row.scopes,
      defaultCountry: row.default_country,
      templatesVersion: row.templates_version,
    },
    apiAccess: limits.apiAccess,
    rate,
  };
}

/**
 * Requests without a valid key are limited per client address, so key guessing is bounded
 * too; the allowance is ten times the default per-key limit (docs/api-platform.md).
 */
export const ANONYMOUS_RATE_LIMIT = 1200;

export function consumeAnonymous(database: Database, address: string): Promise<RateDecision> {
  return consumeBucket(database, `ip:${address}`, ANONYMOUS_RATE_LIMIT);
}

/** Counts one attempt in a named bucket of the same sliding window (sign-in attempts, say). */
export async function consumeBucket(database: Database, bucket: string, limit: number): Promise<RateDecision> {
  const now = Date.now();
  const start = windowStart(now);
  const [row] = await database.query<{ current: number; previous: number | null }>(ANONYMOUS_HIT, [bucket, start, start - WINDOW_MS]);
  const rate = decide({ current: Number(row?.current ?? 1), previous: Number(row?.previous ?? 0) }, limit, now);
  if (!rate.allowed) await database.query(GIVE_BACK, [bucket, start, 1]);
  return rate;
}

function invalidKey(): AppError {
  return new AppError("invalid_api_key", "Invalid API key: it is unknown, malformed or revoked.");
}
