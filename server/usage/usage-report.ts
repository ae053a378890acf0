import { CHANNEL_TYPES, perChannel } from "../channels/registry.ts";
import type { Database } from "../db/client.ts";
import type { ChannelType, KeyMode } from "../generated/prisma/enums.ts";
import type { Columns } from "../db/rows.ts";
import { getSettings } from "../workspaces/workspace-settings.ts";
import { getUsage } from "./get-usage.ts";
import { estimateCost, type Cost } from "./whatsapp-cost.ts";

/** A day's messages of each channel type and mode (`sms_live`, `email_test`). */
export type DailyUsage = { day: string } & Record<`${ChannelType}_${KeyMode}`, number>;
export type MonthlyUsage = { period: string } & Record<ChannelType, number>;

/** A day with no message yet: each channel type's live counts, then its test counts. */
export function emptyDay(day: string): DailyUsage {
  const zeros = (mode: KeyMode) => CHANNEL_TYPES.map((type) => [`${type}_${mode}`, 0] as const);
  return { day, ...Object.fromEntries([...zeros("live"), ...zeros("test")]) } as DailyUsage;
}

/** How many calendar months the usage page lists, this one included. */
export const USAGE_MONTHS = 12;

/**
 * Live messages of the last USAGE_MONTHS months (UTC), newest first, from the usage counters
 * the quota keeps (live only): at most one row per day and channel of the workspace, read on
 * their primary key.
 */
async function monthlyUsage(database: Database, workspaceId: string, now: Date): Promise<MonthlyUsage[]> {
  const months: MonthlyUsage[] = [];
  for (let n = 0; n < USAGE_MONTHS; n++) {
    const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - n, 1));
    months.push({ period: start.toISOString().slice(0, 7), ...perChannel(() => 0) });
  }
  const oldest = `${months[months.length - 1]!.period}-01`;
  const counters = await database.prisma.usageCounter.findMany({
    where: { workspaceId, mode: "live", day: { gte: oldest } },
    select: { day: true, channel: true, count: true },
  });
  for (const c of counters) {
    const month = months.find((m) => m.period === c.day.slice(0, 7));
    if (month) month[c.channel] += c.count;
  }
  return months;
}

/**
 * The dashboard's usage page: the month's live counts against the limits (the same numbers
 * as GET /usage), one row per day of the month with live and test messages per channel, and
 * the totals of the past months.
 */
export async function usageReport(database: Database, workspaceId: string, now = new Date()) {
  const [usage, months, settings] = await Promise.all([
    getUsage(database, workspaceId, now),
    monthlyUsage(database, workspaceId, now),
    getSettings(database, workspaceId),
  ]);
  // D89: each category's price and estimated cost, for the table of WhatsApp messages by pricing.
  const pricing = Object.entries(usage.whatsapp_pricing).map(([category, counts]) => ({
    category,
    ...counts,
    price: settings.whatsapp_prices[category] ?? null,
    cost: estimateCost({ [category]: counts.charged }, settings.whatsapp_prices, settings.currency) as Cost | null,
  }));
  const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const nextMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  const rows = await database.query<Columns<"messages", "channel" | "mode"> & { day: string; count: string }>(
    `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, channel::text AS channel, mode::text AS mode, count(*) AS count
     FROM messages WHERE workspace_id = $1 AND created_at >= $2 AND created_at < $3
     GROUP BY 1, 2, 3`,
    [workspaceId, monthStart, nextMonth],
  );
  const days: DailyUsage[] = [];
  for (let d = new Date(monthStart); d < nextMonth; d.setUTCDate(d.getUTCDate() + 1)) {
    days.push(emptyDay(d.toISOString().slice(0, 10)));
  }
  for (const r of rows) {
    const day = days.find((d) => d.day === r.day);
    if (day) day[`${r.channel}_${r.mode}`] += Number(r.count);
  }
  // D76: live messages canceled this month, whose count was given back to the limits.
  const canceled = perChannel(() => 0);
  const given = await database.query<Columns<"usage_counters", "channel"> & { canceled: string }>(
    `SELECT channel::text AS channel, sum(canceled) AS canceled FROM usage_counters
     WHERE workspace_id = $1 AND mode = 'live' AND day LIKE $2 GROUP BY channel`,
    [workspaceId, `${monthStart.toISOString().slice(0, 7)}-%`],
  );
  for (const g of given) canceled[g.channel] += Number(g.canceled);
  const today = usage.period === now.toISOString().slice(0, 7) ? days.find((d) => d.day === now.toISOString().slice(0, 10)) : undefined;
  return {
    ...usage,
    today: perChannel((channel) => today?.[`${channel.type}_live`] ?? 0),
    test: perChannel((channel) => days.reduce((s, d) => s + d[`${channel.type}_test`], 0)),
    canceled,
    days,
    months,
    pricing,
    currency: settings.currency,
  };
}
