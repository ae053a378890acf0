import type { Database } from "../db/client.ts";
import { getUsage } from "./get-usage.ts";

export type DailyUsage = { day: string; whatsapp_live: number; email_live: number; whatsapp_test: number; email_test: number };

/**
 * The dashboard's usage page: the month's live counts against the limits (the same numbers
 * as GET /usage), and one row per day of the month with live and test messages per channel.
 */
export async function usageReport(database: Database, workspaceId: string, now = new Date()) {
  const usage = await getUsage(database, workspaceId, now);
  const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const nextMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  const rows = await database.query<{ day: string; channel: "whatsapp" | "email"; mode: "test" | "live"; count: string }>(
    `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, channel::text AS channel, mode::text AS mode, count(*) AS count
     FROM messages WHERE workspace_id = $1 AND created_at >= $2 AND created_at < $3
     GROUP BY 1, 2, 3`,
    [workspaceId, monthStart, nextMonth],
  );
  const days: DailyUsage[] = [];
  for (let d = new Date(monthStart); d < nextMonth; d.setUTCDate(d.getUTCDate() + 1)) {
    days.push({ day: d.toISOString().slice(0, 10), whatsapp_live: 0, email_live: 0, whatsapp_test: 0, email_test: 0 });
  }
  for (const r of rows) {
    const day = days.find((d) => d.day === r.day);
    if (day) day[`${r.channel}_${r.mode}`] += Number(r.count);
  }
  const today = usage.period === now.toISOString().slice(0, 7) ? days.find((d) => d.day === now.toISOString().slice(0, 10)) : undefined;
  return {
    ...usage,
    today: { whatsapp: today?.whatsapp_live ?? 0, email: today?.email_live ?? 0 },
    test: { whatsapp: days.reduce((s, d) => s + d.whatsapp_test, 0), email: days.reduce((s, d) => s + d.email_test, 0) },
    days,
  };
}
