import type { Database } from "../db/client.ts";
import type { Plan } from "../generated/prisma/enums.ts";
import { AppError } from "../lib/errors.ts";
import { sha256Hex } from "../lib/crypto.ts";
import { decide, windowStart, WINDOW_MS, type RateDecision } from "../ratelimit/sliding-window.ts";
import { effectiveLimits } from "../workspaces/plans.ts";
import type { Mode, Scope } from "./scopes.ts";

export type KeyPrincipal = {
  keyId: string;
  keyHash: string;
  workspaceId: string;
  mode: Mode;
  scopes: Scope[];
  apiAccess: boolean;
};

const KEY_FORMAT = /^svc_(test|live)_[0-9A-Za-z]{32,}$/;

type Row = {
  id: string;
  workspace_id: string;
  mode: Mode;
  scopes: string[];
  revoked: boolean;
  plan: Plan;
  rate_limit: number | null;
  daily_limit: number | null;
  monthly_limit: number | null;
  monthly_limit_set: boolean;
  current: number | null;
  previous: number | null;
};

/**
 * The hot path of every API call, in one round trip: find the key and its workspace's plan,
 * count the request in the key's rate-limit window, read the previous window, and touch
 * `last_used_at` at most once a minute (D21, D24). Revocation is read from the row on every
 * call, so it takes effect at once on every instance.
 */
export async function authenticateKey(
  database: Database,
  bearer: string | undefined,
): Promise<{ principal: KeyPrincipal; rate: RateDecision }> {
  if (!bearer) {
    throw new AppError("authentication", "missing_api_key", "No API key provided. Send it as `Authorization: Bearer svc_live_…`.");
  }
  if (!KEY_FORMAT.test(bearer)) throw invalidKey();
  const hash = sha256Hex(bearer);
  const now = Date.now();
  const start = windowStart(now);
  const rows = await database.prisma.$queryRaw<Row[]>`
    WITH k AS (
      SELECT k.id, k.workspace_id, k.mode::text AS mode, k.scopes, k.revoked_at IS NOT NULL AS revoked,
             w.plan::text AS plan, w.rate_limit, w.daily_limit, w.monthly_limit, w.monthly_limit_set
      FROM api_keys k JOIN workspaces w ON w.id = k.workspace_id
      WHERE k.hash = ${hash}
    ), touch AS (
      UPDATE api_keys SET last_used_at = now()
      WHERE hash = ${hash} AND revoked_at IS NULL
        AND (last_used_at IS NULL OR last_used_at < now() - interval '60 seconds')
      RETURNING 1
    ), hit AS (
      INSERT INTO rate_limit_counters (key_hash, window_start, count)
      SELECT ${hash}, ${BigInt(start)}, 1 FROM k WHERE NOT k.revoked
      ON CONFLICT (key_hash, window_start) DO UPDATE SET count = rate_limit_counters.count + 1
      RETURNING count
    )
    SELECT k.*, (SELECT count FROM hit) AS current,
      (SELECT count FROM rate_limit_counters WHERE key_hash = ${hash} AND window_start = ${BigInt(start - WINDOW_MS)}) AS previous
    FROM k`;
  const row = rows[0];
  if (!row || row.revoked || row.current === null) throw invalidKey();
  const limits = effectiveLimits({
    plan: row.plan,
    rateLimit: row.rate_limit,
    dailyLimit: row.daily_limit,
    monthlyLimit: row.monthly_limit,
    monthlyLimitSet: row.monthly_limit_set,
  });
  const rate = decide({ current: row.current, previous: row.previous ?? 0 }, limits.rateLimit, now);
  if (!rate.allowed) await giveBack(database, hash, start);
  return {
    principal: {
      keyId: row.id,
      keyHash: hash,
      workspaceId: row.workspace_id,
      mode: row.mode,
      scopes: row.scopes as Scope[],
      apiAccess: limits.apiAccess,
    },
    rate,
  };
}

/** Requests refused with 429 do not use up the window (the client is not punished twice). */
async function giveBack(database: Database, bucket: string, start: number): Promise<void> {
  await database.prisma.$executeRaw`
    UPDATE rate_limit_counters SET count = count - 1 WHERE key_hash = ${bucket} AND window_start = ${BigInt(start)}`;
}

/**
 * Requests without a valid key are limited per client address, so key guessing is bounded
 * too; the allowance is ten times the default per-key limit (docs/api-platform.md).
 */
export const ANONYMOUS_RATE_LIMIT = 1200;

export async function consumeAnonymous(database: Database, address: string): Promise<RateDecision> {
  const bucket = `ip:${address}`;
  const now = Date.now();
  const start = windowStart(now);
  const rows = await database.prisma.$queryRaw<{ current: number; previous: number | null }[]>`
    WITH hit AS (
      INSERT INTO rate_limit_counters (key_hash, window_start, count) VALUES (${bucket}, ${BigInt(start)}, 1)
      ON CONFLICT (key_hash, window_start) DO UPDATE SET count = rate_limit_counters.count + 1
      RETURNING count
    )
    SELECT (SELECT count FROM hit) AS current,
      (SELECT count FROM rate_limit_counters WHERE key_hash = ${bucket} AND window_start = ${BigInt(start - WINDOW_MS)}) AS previous`;
  const row = rows[0] ?? { current: 1, previous: 0 };
  const rate = decide({ current: row.current, previous: row.previous ?? 0 }, ANONYMOUS_RATE_LIMIT, now);
  if (!rate.allowed) await giveBack(database, bucket, start);
  return rate;
}

function invalidKey(): AppError {
  return new AppError("authentication", "invalid_api_key", "Invalid API key: it is unknown, malformed or revoked.");
}
