import type { ChannelType } from "../generated/prisma/enums.ts";
import { perChannel } from "../channels/registry.ts";
import { parse as parseDuration } from "tinyduration";
import { z } from "zod";
import type { Handle } from "../db/client.ts";
import type { Mode } from "../keys/scopes.ts";

// D67, D81: frequency caps. A workspace (and, stricter, a flow) may allow at most `count`
// journey messages per contact, channel and rolling `period`. Every outbound message of the
// contact in the key's mode counts (API sends too, which are never capped themselves); the
// count reads the contact's messages of the period through the index on (workspace, contact,
// created_at) and stops at the cap, so it never reads a contact's whole history.

const DAY_MS = 86_400_000;

/** A rolling period in days, hours, minutes or weeks (no months: their length varies), at most 30 days. */
export function periodMs(text: string): number | null {
  try {
    const d = parseDuration(text);
    if (d.years || d.months || d.negative) return null;
    return ((d.weeks ?? 0) * 7 + (d.days ?? 0)) * DAY_MS + ((d.hours ?? 0) * 3600 + (d.minutes ?? 0) * 60 + (d.seconds ?? 0)) * 1000;
  } catch {
    return null;
  }
}

export const ZCap = z.strictObject({
  count: z.number().int().min(1, "must be at least 1").max(1000, "must be at most 1000").meta({ example: 3 }),
  period: z
    .string()
    .max(32)
    .refine((p) => {
      const ms = periodMs(p);
      return ms !== null && ms > 0;
    }, "must be an ISO 8601 duration in weeks, days, hours or minutes, such as P1D or PT12H")
    .refine((p) => (periodMs(p) ?? 0) <= 30 * DAY_MS, "must be at most 30 days")
    .meta({ example: "P1D" }),
});
export type Cap = z.infer<typeof ZCap>;

export const ZCaps = z
  .strictObject(perChannel(() => ZCap.optional()))
  .describe("At most `count` journey messages per contact and channel in any rolling `period`.");
export type Caps = z.infer<typeof ZCaps>;

/** The caps a journey send meets: the workspace's and the flow's, the stricter of each where both have one. */
export function capsFor(channel: ChannelType, ...sets: (Caps | null | undefined)[]): Cap[] {
  return sets.flatMap((caps) => (caps?.[channel] ? [caps[channel]] : []));
}

// The contact's outbound messages on the channel in the mode since `$5`, counted up to `$6`.
const COUNT = `
  SELECT count(*)::int AS n FROM (
    SELECT 1 FROM messages
    WHERE workspace_id = $1 AND contact_id = $2 AND created_at > $5 AND mode = $3::"KeyMode" AND channel = $4::"ChannelType"
      AND direction = 'outbound' AND canceled_at IS NULL
    LIMIT $6
  ) m`;

/**
 * Whether a journey message now would exceed one of `caps`: the contact's messages of each
 * cap's period, plus `pending` (written by this transaction but not yet inserted), against its count.
 */
export async function overCap(
  sql: Handle,
  to: { workspaceId: string; contactId: string; mode: Mode; channel: ChannelType },
  caps: Cap[],
  now: Date,
  pending: (since: Date) => number = () => 0,
): Promise<boolean> {
  for (const cap of caps) {
    const since = new Date(now.getTime() - periodMs(cap.period)!);
    const [row] = await sql<{ n: number }>(COUNT, [to.workspaceId, to.contactId, to.mode, to.channel, since, cap.count]);
    if ((row?.n ?? 0) + pending(since) >= cap.count) return true;
  }
  return false;
}
