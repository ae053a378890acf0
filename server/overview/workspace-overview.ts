import type { ChannelType } from "../generated/prisma/enums.ts";
import type { Database } from "../db/client.ts";
import type { KeyMode } from "../generated/prisma/enums.ts";
import type { Columns } from "../db/rows.ts";
import { listFlows } from "../flows/list-flows.ts";
import { getUsage } from "../usage/get-usage.ts";
import { emptyDay, type DailyUsage } from "../usage/usage-report.ts";
import { CHANNEL_TYPES, perChannel } from "../channels/registry.ts";
import { listEndpoints } from "../webhooks/list-endpoints.ts";

// The dashboard's overview of a workspace (its home page): volume, outcomes, what needs
// attention, and the first steps of a new workspace. Every figure comes from a bounded,
// indexed read (server/db/query-plans.test.ts):
// - volume per day, channel and mode counted as the usage page counts its month: an index-only
//   scan of (workspace_id, created_at, id, channel, mode) over 30 days (usage_counters hold
//   live messages only, and the overview shows test messages too);
// - outcomes (status, failure reasons) from the newest RECENT_SAMPLE messages of the last
//   30 days of the mode the dashboard shows (its test/live switch), read backwards on the
//   (workspace_id, mode, created_at, id) index and capped, so a workspace with millions of
//   messages costs the same as one with ten thousand.

export const OVERVIEW_DAYS = 30;
/** How many of the newest messages the status figures and failure reasons are counted over. */
export const RECENT_SAMPLE = 10_000;

type Channel = ChannelType;

const STATUSES = ["queued", "sent", "delivered", "read", "failed"] as const;
type Status = (typeof STATUSES)[number];

function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** The overview of `mode`'s messages (D40: each message belongs to one mode); the limits count live ones whatever the mode shown (D20). */
export async function workspaceOverview(database: Database, workspaceId: string, mode: KeyMode, now = new Date()) {
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - (OVERVIEW_DAYS - 1)));
  const since = new Date(now.getTime() - OVERVIEW_DAYS * 24 * 60 * 60_000);

  const [counters, recent, reasons, usage, endpoints, flows, key, channel, liveMessage] = await Promise.all([
    database.query<Columns<"messages", "channel" | "mode"> & { day: string; count: string }>(
      `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, channel::text AS channel, mode::text AS mode, count(*) AS count
       FROM messages WHERE workspace_id = $1 AND created_at >= $2 GROUP BY 1, 2, 3`,
      [workspaceId, first],
    ),
    database.query<Columns<"messages", "channel" | "status"> & { count: string }>(
      `SELECT channel::text AS channel, status::text AS status, count(*) AS count FROM (
         SELECT channel, status FROM messages WHERE workspace_id = $1 AND mode = $4::"KeyMode" AND created_at >= $2
         ORDER BY created_at DESC, id DESC LIMIT $3
       ) recent GROUP BY 1, 2`,
      [workspaceId, since, RECENT_SAMPLE, mode],
    ),
    database.query<Columns<"messages", "error"> & { count: string }>(
      `SELECT error, count(*) AS count FROM (
         SELECT status, error FROM messages WHERE workspace_id = $1 AND mode = $4::"KeyMode" AND created_at >= $2
         ORDER BY created_at DESC, id DESC LIMIT $3
       ) recent WHERE status = 'failed' GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 10`,
      [workspaceId, since, RECENT_SAMPLE, mode],
    ),
    getUsage(database, workspaceId, now),
    listEndpoints(database, workspaceId),
    listFlows(database, workspaceId),
    database.prisma.apiKey.findFirst({ where: { workspaceId }, select: { id: true } }),
    database.prisma.channel.findFirst({ where: { workspaceId }, select: { id: true } }),
    database.prisma.message.findFirst({
      where: { workspaceId, mode: "live" },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      select: { id: true },
    }),
  ]);

  const days: DailyUsage[] = [];
  for (let n = 0; n < OVERVIEW_DAYS; n++) {
    const day = utcDay(new Date(first.getTime() + n * 24 * 60 * 60_000));
    days.push(emptyDay(day));
  }
  for (const c of counters) {
    const day = days.find((d) => d.day === c.day);
    if (!day) continue;
    day[`${c.channel}_${c.mode}`] += Number(c.count);
  }
  const today = days[days.length - 1]!;

  const byStatus = Object.fromEntries(STATUSES.map((s) => [s, perChannel(() => 0)])) as Record<Status, Record<Channel, number>>;
  // Inbound messages (`received`) and canceled ones (D76) are not part of the sent mix.
  for (const r of recent) if (r.status !== "received" && r.status !== "canceled") byStatus[r.status][r.channel] += Number(r.count);
  const total = (s: Status) => CHANNEL_TYPES.reduce((n, type) => n + byStatus[s][type], 0);
  const sampled = STATUSES.reduce((sum, s) => sum + total(s), 0);
  const delivered = total("delivered") + total("read");
  const failed = total("failed");

  return {
    days,
    mode,
    today: {
      whatsapp: today[`whatsapp_${mode}`],
      email: today[`email_${mode}`],
      whatsapp_live: today.whatsapp_live,
      email_live: today.email_live,
    },
    last_30_days: {
      whatsapp: days.reduce((s, d) => s + d[`whatsapp_${mode}`], 0),
      email: days.reduce((s, d) => s + d[`email_${mode}`], 0),
    },
    recent: {
      sampled,
      capped: sampled >= RECENT_SAMPLE,
      by_status: STATUSES.map((status) => ({ status, ...byStatus[status], total: total(status) })),
      /** Delivered or read, and failed, out of the sampled messages (null when there are none). */
      delivery_rate: sampled ? delivered / sampled : null,
      failure_rate: sampled ? failed / sampled : null,
      failure_reasons: reasons.map((r) => ({ reason: r.error ?? "No reason recorded", count: Number(r.count) })),
    },
    usage,
    failing_endpoints: endpoints
      .filter((e) => e.disabled_reason !== null || e.last_24h.failed > 0)
      .map((e) => ({
        id: e.id,
        url: e.url,
        disabled_reason: e.disabled_reason,
        failed_24h: e.last_24h.failed,
        succeeded_24h: e.last_24h.succeeded,
      })),
    active_flows: flows
      .filter((f) => f.runs.active > 0)
      .sort((a, b) => b.runs.active - a.runs.active)
      .slice(0, 10)
      .map((f) => ({ id: f.id, name: f.name, status: f.status, active_runs: f.runs.active })),
    checklist: {
      key_created: key !== null,
      channel_connected: channel !== null,
      webhook_registered: endpoints.length > 0,
      live_message_sent: liveMessage !== null,
    },
  };
}

export type WorkspaceOverview = Awaited<ReturnType<typeof workspaceOverview>>;
