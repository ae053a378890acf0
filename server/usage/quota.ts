import type { ChannelType } from "../generated/prisma/enums.ts";
import type { Handle } from "../db/client.ts";
import type { Plan } from "../generated/prisma/enums.ts";
import { AppError } from "../lib/errors.ts";
import { effectiveLimits } from "../workspaces/plans.ts";

export type Channel = ChannelType;

/** UTC day `YYYY-MM-DD` and month `YYYY-MM` (D20, D25). */
export function usagePeriod(at: Date): { day: string; month: string } {
  const day = at.toISOString().slice(0, 10);
  return { day, month: day.slice(0, 7) };
}

/**
 * Counts one live message against the workspace's limits, in the sending transaction (D25),
 * with its sms segments (D97; null on other channels); throws `quota_exceeded` when the daily
 * limit of the channel or the monthly limit is reached, and nothing is counted then.
 */
export async function countLiveMessage(
  sql: Handle,
  workspaceId: string,
  channel: Channel,
  at: Date,
  segments: number | null,
): Promise<void> {
  const { refusal } = await countLiveMessages(sql, workspaceId, channel, at, [segments]);
  if (refusal) throw refusal;
}

export type CountOutcome = { accepted: number; refusal: AppError | null };

/**
 * Counts live messages of one channel, sent at once, in their order (D25), given the sms
 * segments of each (D97; null on other channels): as if each were counted alone, the first
 * `accepted` fit, with their segments, and each later one gets `refusal`, the limit it would
 * have met. One statement (the database's `count_live_messages`), which locks the workspace's
 * row so that concurrent sends count one batch at a time and the counters are exact.
 */
export async function countLiveMessages(
  sql: Handle,
  workspaceId: string,
  channel: Channel,
  at: Date,
  segments: readonly (number | null)[],
): Promise<CountOutcome> {
  return countWith(workspaceId, channel, at, segments.length, async (args) => {
    const [row] = await sql<CountRow>(`SELECT * FROM count_live_messages(${countArgs(1)}, $8::int[])`, [...args, segments]);
    return row!;
  });
}

// `count_live_messages` stays a function in the database because its lock needs it: each of
// its statements reads after the workspace's row lock is held, where the parts of one statement
// share the snapshot taken before the lock was waited for and would miss a count committed meanwhile.

/**
 * `count_live_messages`'s arguments but its last (the segments of each message offered), the
 * statement's parameters from `$first` on (the values `countWith` passes); `n` may wrap the
 * number asked for in an expression of the statement's.
 */
export function countArgs(first: number, n = (asked: string) => asked): string {
  const p = (i: number) => `$${first + i}`;
  return `${p(0)}, ${p(1)}::"ChannelType", ${p(2)}, ${n(`${p(3)}::int`)}, ${p(4)}::jsonb, ${p(5)}::int, ${p(6)}::int`;
}

/** What `count_live_messages` answers. */
export type CountRow = { seen: LimitColumns; today: number | null; month: number | null; accepted: number | null };

/** A workspace's columns that its limits are computed from. */
type LimitColumns = { plan: Plan; daily_limit: number | null; monthly_limit: number | null; monthly_limit_set: boolean };

// The limit columns of the workspaces this process counted for, as it last saw them. A count
// passes them with the limits computed from them, and the database checks them under the
// workspace's lock: when they changed, nothing is counted and the count runs again with the
// columns it returned. So a limit changed on any instance holds from the next count on, and an
// unchanged one costs no read of its own.
const seenColumns = new Map<string, LimitColumns>();
const SEEN_WORKSPACES = 10_000;

/**
 * Runs a count through `call` (given the values of `countArgs`: a statement that calls
 * `count_live_messages`, alone or inside a statement that writes what fits) until it counts
 * with the workspace's current limits; the outcome.
 */
export async function countWith(
  workspaceId: string,
  channel: Channel,
  at: Date,
  n: number,
  call: (args: unknown[]) => Promise<CountRow>,
): Promise<CountOutcome> {
  const { day, month } = usagePeriod(at);
  for (let attempt = 0; ; attempt++) {
    const seen = seenColumns.get(workspaceId) ?? null;
    const limits = seen && limitsOf(seen);
    const row = await call([workspaceId, channel, day, n, seen && JSON.stringify(seen), limits?.dailyLimit, limits?.monthlyLimit]);
    if (limits && row.accepted !== null) return outcome(limits, channel, day, month, n, row.today!, row.accepted);
    seenColumns.delete(workspaceId); // re-inserted last: the oldest entries go first
    seenColumns.set(workspaceId, row.seen);
    if (seenColumns.size > SEEN_WORKSPACES) seenColumns.delete(seenColumns.keys().next().value!);
    if (attempt === 3) throw new Error(`the limits of workspace ${workspaceId} kept changing while messages were counted`);
  }
}

function limitsOf(seen: LimitColumns) {
  return effectiveLimits({
    plan: seen.plan,
    rateLimit: null,
    dailyLimit: seen.daily_limit,
    monthlyLimit: seen.monthly_limit,
    monthlyLimitSet: seen.monthly_limit_set,
  });
}

function outcome(
  limits: { dailyLimit: number; monthlyLimit: number | null },
  channel: Channel,
  day: string,
  month: string,
  n: number,
  today: number,
  accepted: number,
): CountOutcome {
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

// A live message's day and month counts with the workspace's limit columns, read without
// locking or counting (`$1` the workspace, `$2` the UTC day, `$3` the channel).
const READ_COUNTS = `
  SELECT w.plan::text AS plan, w.daily_limit, w.monthly_limit, w.monthly_limit_set,
    coalesce(sum(u.count) FILTER (WHERE u.day = $2 AND u.channel = $3::"ChannelType"), 0)::int AS today,
    coalesce(sum(u.count), 0)::int AS month
  FROM workspaces w LEFT JOIN usage_counters u ON u.workspace_id = w.id AND u.mode = 'live' AND u.day LIKE left($2, 7) || '-%'
  WHERE w.id = $1 GROUP BY w.id`;

/**
 * D25 without counting (a dry run, reachability, D71): the limit one more live message of the
 * channel would meet now, or null. It fits as `count_live_messages` would count it: while the
 * day's count of the channel is under the daily limit and the month's under the monthly one.
 */
export async function quotaRefusal(sql: Handle, workspaceId: string, channel: Channel, at: Date): Promise<AppError | null> {
  const { day, month } = usagePeriod(at);
  const [row] = await sql<LimitColumns & { today: number; month: number }>(READ_COUNTS, [workspaceId, day, channel]);
  if (!row) return null;
  const limits = limitsOf(row);
  const fits = row.today < limits.dailyLimit && (limits.monthlyLimit === null || row.month < limits.monthlyLimit);
  return outcome(limits, channel, day, month, 1, row.today, fits ? 1 : 0).refusal;
}

/**
 * D76: a canceled live message gives back its count against the limits, and its sms segments
 * (D97; null on other channels), on the day it was counted (acceptance, D20); `canceled` keeps
 * how many were given back, for the usage page.
 */
export async function giveBack(
  sql: Handle,
  workspaceId: string,
  message: { channel: Channel; acceptedAt: Date; segments: number | null },
): Promise<void> {
  await sql(
    `UPDATE usage_counters SET count = greatest(count - 1, 0), canceled = canceled + 1, segments = greatest(segments - $4, 0)
     WHERE workspace_id = $1 AND day = $2 AND channel = $3::"ChannelType" AND mode = 'live'`,
    [workspaceId, usagePeriod(message.acceptedAt).day, message.channel, message.segments ?? 0],
  );
}
