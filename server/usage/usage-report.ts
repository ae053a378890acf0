import type { Database } from "../db/client.ts";
import type { Columns } from "../db/rows.ts";
import { getSettings } from "../workspaces/workspace-settings.ts";
import { getUsage } from "./get-usage.ts";
import { estimateCost, type Cost } from "./whatsapp-cost.ts";

export type DailyUsage = {
  day: string;
  whatsapp_live: number;
  email_live: number;
  sms_live: number;
  whatsapp_test: number;
  email_test: number;
  sms_test: number;
};
export type MonthlyUsage = { period: string; whatsapp: number; email: number; sms: number };

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
    months.push({ period: start.toISOString().slice(0, 7), whatsapp: 0, email: 0, sms: 0 });
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
    days.push({
      day: d.toISOString().slice(0, 10),
      whatsapp_live: 0,
      email_live: 0,
      sms_live: 0,
      whatsapp_test: 0,
      email_test: 0,
      sms_test: 0,
    });
  }
  for (const r of rows) {
    const day = days.find((d) => d.day === r.day);
    if (day) day[`${r.channel}_${r.mode}`] += Number(r.count);
  }
  // D76: live messages canceled this month, whose count was given back to the limits.
  const canceled = { whatsapp: 0, email: 0, sms: 0 };
  const given = await database.query<Columns<"usage_counters", "channel"> & { canceled: string }>(
    `SELECT channel::text AS channel, sum(canceled) AS canceled FROM usage_counters
     WHERE workspace_id = $1 AND mode = 'live' AND day LIKE $2 GROUP BY channel`,
    [workspaceId, `${monthStart.toISOString().slice(0, 7)}-%`],
  );
  for (const g of given) canceled[g.channel] += Number(g.canceled);
  const today = usage.period === now.toISOString().slice(0, 7) ? days.find((d) => d.day === now.toISOString().slice(0, 10)) : undefined;
  return {
    ...usage,
    today: { whatsapp: today?.whatsapp_live ?? 0, email: today?.email_live ?? 0, sms: today?.sms_live ?? 0 },
    test: {
      whatsapp: days.reduce((s, d) => s + d.whatsapp_test, 0),
      email: days.reduce((s, d) => s + d.email_test, 0),
      sms: days.reduce((s, d) => s + d.sms_test, 0),
    },
    canceled,
    days,
    months,
    pricing,
    currency: settings.currency,
  };
}
