import { z } from "zod";
import type { Database } from "../db/client.ts";
import { effectiveLimits } from "../workspaces/plans.ts";
import { usagePeriod } from "./quota.ts";

export const ZUsage = z
  .object({
    period: z.string().describe("The current calendar month in UTC, `YYYY-MM`.").meta({ example: "2026-11" }),
    whatsapp: z.int().describe("Live WhatsApp messages accepted this month."),
    email: z.int().describe("Live e-mails accepted this month."),
    total: z.int(),
    limit: z.int().nullable().describe("Monthly limit; null when there is none."),
    daily_limit_per_channel: z.int().describe("Daily limit applied to each channel (UTC day)."),
  })
  .meta({ id: "Usage" });

export type Usage = z.infer<typeof ZUsage>;

/** GET /usage: live messages counted at acceptance, API and flows alike (D20, D25). */
export async function getUsage(database: Database, workspaceId: string, now = new Date()): Promise<Usage> {
  const { month } = usagePeriod(now);
  const ws = await database.prisma.workspace.findUniqueOrThrow({ where: { id: workspaceId } });
  const rows = await database.prisma.usageCounter.groupBy({
    by: ["channel"],
    where: { workspaceId, mode: "live", day: { startsWith: `${month}-` } },
    _sum: { count: true },
  });
  const of = (channel: "whatsapp" | "email") => rows.find((r) => r.channel === channel)?._sum.count ?? 0;
  const limits = effectiveLimits(ws);
  return {
    period: month,
    whatsapp: of("whatsapp"),
    email: of("email"),
    total: of("whatsapp") + of("email"),
    limit: limits.monthlyLimit,
    daily_limit_per_channel: limits.dailyLimit,
  };
}
