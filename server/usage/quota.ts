import type { Handle } from "../db/client.ts";
import type { Plan } from "../generated/prisma/enums.ts";
import { AppError } from "../lib/errors.ts";
import { effectiveLimits } from "../workspaces/plans.ts";

export type Channel = "whatsapp" | "email";

/** UTC day `YYYY-MM-DD` and month `YYYY-MM` (D20, D25). */
export function usagePeriod(at: Date): { day: string; month: string } {
  const day = at.toISOString().slice(0, 10);
  return { day, month: day.slice(0, 7) };
}

/**
 * Counts one live message against the workspace's limits, in the sending transaction (D25);
 * throws `quota_exceeded` when the daily limit of the channel or the monthly limit is
 * reached, and nothing is counted then.
 */
export async function countLiveMessage(sql: Handle, workspaceId: string, channel: Channel, at: Date): Promise<void> {
  const { refusal } = await countLiveMessages(sql, workspaceId, channel, at, 1);
  if (refusal) throw refusal;
}

/**
 * Counts up to `n` live messages of one channel, sent at once, in their order (D25): as if
 * each were counted alone, the first `accepted` fit and each later one gets `refusal`, the
 * limit it would have met. The workspace row is locked so that concurrent sends count one
 * batch at a time and the counter is exact.
 */
export async function countLiveMessages(
  sql: Handle,
  workspaceId: string,
  channel: Channel,
  at: Date,
  n: number,
): Promise<{ accepted: number; refusal: AppError | null }> {
  const { day, month } = usagePeriod(at);
  const [ws] = await sql<{ plan: Plan; daily_limit: number | null; monthly_limit: number | null; monthly_limit_set: boolean }>(
    `SELECT plan::text AS plan, daily_limit, monthly_limit, monthly_limit_set FROM workspaces WHERE id = $1 FOR NO KEY UPDATE`,
    [workspaceId],
  );
  if (!ws) throw new Error(`workspace ${workspaceId} vanished`);
  const limits = effectiveLimits({
    plan: ws.plan,
    rateLimit: null,
    dailyLimit: ws.daily_limit,
    monthlyLimit: ws.monthly_limit,
    monthlyLimitSet: ws.monthly_limit_set,
  });
  // The counts so far and the increment by what fits, in one statement: the workspace's lock
  // (above) keeps its counters still meanwhile.
  const [used] = await sql<{ today: number; month: number; accepted: number }>(
    `WITH used AS (
       SELECT coalesce(sum(count) FILTER (WHERE day = $2 AND channel = $3::"ChannelType"), 0)::int AS today,
              coalesce(sum(count), 0)::int AS month
       FROM usage_counters WHERE workspace_id = $1 AND mode = 'live' AND day LIKE $4
     ),
     fit AS (
       SELECT today, month, greatest(0, least($5::int, $6::int - today, coalesce($7::int - month, $5::int)))::int AS accepted FROM used
     ),
     counted AS (
       INSERT INTO usage_counters (workspace_id, day, channel, mode, count)
       SELECT $1, $2, $3::"ChannelType", 'live', accepted FROM fit WHERE accepted > 0
       ON CONFLICT (workspace_id, day, channel, mode) DO UPDATE SET count = usage_counters.count + EXCLUDED.count
     )
     SELECT today, month, accepted FROM fit`,
    [workspaceId, day, channel, `${month}-%`, n, limits.dailyLimit, limits.monthlyLimit],
  );
  const today = used!.today;
  const accepted = used!.accepted;
  if (accepted === n) return { accepted, refusal: null };
  // The first message that does not fit meets the daily limit first, as a message alone would.
  const refusal =
    today + accepted >= limits.dailyLimit
      ? new AppError("daily_limit_reached", `The daily limit of ${limits.dailyLimit} ${channel} messages is reached for ${day} (UTC).`, {
          param: "channel",
        })
      : new AppError("monthly_limit_reached", `The monthly limit of ${limits.monthlyLimit} messages is reached for ${month}.`, {
          param: "channel",
        });
  return { accepted, refusal };
}
