import { z } from "zod";
import { CHANNEL_TYPES, channelOf, mergedParts, perChannel } from "../channels/registry.ts";
import type { Database } from "../db/client.ts";
import { effectiveLimits } from "../workspaces/plans.ts";
import { usagePeriod } from "./quota.ts";
import { estimateCost, pricingByCategory, ZCost, type WhatsAppPrices } from "./whatsapp-cost.ts";

/** What channels add to the month's usage (the sms's `sms_segments`), after every channel's count. */
const USAGE_FIELDS = mergedParts("usageFields");

export const ZUsage = z
  .object({
    period: z.string().describe("The current calendar month in UTC, `YYYY-MM`.").meta({ example: "2026-11" }),
    ...perChannel((channel) => z.int().describe(channel.usage.accepted)),
    ...USAGE_FIELDS,
    total: z.int(),
    limit: z.int().nullable().describe("Monthly limit; null when there is none."),
    daily_limit_per_channel: z.int().describe("Daily limit applied to each channel (UTC day)."),
    whatsapp_pricing: z
      .record(
        z.string(),
        z.object({
          charged: z.int().describe("Messages Meta charges for (pricing type `regular`)."),
          free: z.int().describe("Messages Meta does not charge for (any other pricing type)."),
        }),
      )
      .describe(
        "This month's live WhatsApp messages by Meta's pricing category (such as `marketing`, `utility`, `authentication`, `service`), as their latest status reports priced them; each message counts in the month it was accepted. Categories with no message are left out.",
      )
      .meta({ example: { marketing: { charged: 120, free: 4 }, utility: { charged: 310, free: 0 } } }),
    whatsapp_cost: ZCost.optional().describe(
      "The month's estimated WhatsApp cost at the workspace's prices (`svc workspace update --whatsapp-price`): each category's charged messages times its price. Absent while no prices are set.",
    ),
  })
  .meta({ id: "Usage" });

export type Usage = z.infer<typeof ZUsage>;

/**
 * GET /usage: live messages counted at acceptance, API and flows alike (D20, D25), with the
 * WhatsApp ones by pricing and their estimated cost (D89), and what each channel adds (the sms
 * segments, D97): a few counter rows per day of the month.
 */
export async function getUsage(database: Database, workspaceId: string, now = new Date()): Promise<Usage> {
  const { month } = usagePeriod(now);
  const ws = await database.prisma.workspace.findUniqueOrThrow({ where: { id: workspaceId } });
  const rows = await database.prisma.usageCounter.findMany({
    where: { workspaceId, mode: "live", day: { startsWith: `${month}-` } },
    select: { channel: true, count: true, whatsappPricing: true, segments: true },
  });
  const counts = perChannel((channel) => rows.reduce((n, r) => n + (r.channel === channel.type ? r.count : 0), 0));
  const keys: Record<string, number> = {};
  for (const r of rows)
    for (const [key, n] of Object.entries(r.whatsappPricing as Record<string, number>)) keys[key] = (keys[key] ?? 0) + n;
  const pricing = pricingByCategory(keys);
  const cost = estimateCost(
    Object.fromEntries(Object.entries(pricing).map(([category, p]) => [category, p.charged])),
    ws.whatsappPrices as WhatsAppPrices,
    ws.currency,
  );
  const limits = effectiveLimits(ws);
  return {
    period: month,
    ...counts,
    ...(Object.assign({}, ...CHANNEL_TYPES.map((type) => channelOf(type).usage.of?.(rows))) as Pick<Usage, keyof typeof USAGE_FIELDS>),
    total: CHANNEL_TYPES.reduce((n, type) => n + counts[type], 0),
    limit: limits.monthlyLimit,
    daily_limit_per_channel: limits.dailyLimit,
    whatsapp_pricing: pricing,
    ...(cost ? { whatsapp_cost: cost } : {}),
  };
}
