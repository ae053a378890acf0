import type { Database, Handle } from "../db/client.ts";
import { pauseChannel } from "./channel-pause.ts";

// D93: the reputation guard of e-mail channels. Each channel keeps one row of counters per UTC
// day (`channel_reputation`): e-mails handed to the provider (`sent`), `delivered`, complaints
// and hard bounces. The statements that move a message add to its day's row (one upsert per
// statement, whatever the number of messages), so no send or report ever scans messages; the
// rates are the sums of the last 7 days' rows. When a complaint or a hard bounce is recorded,
// the channel's rates are checked: past its workspace's threshold, with at least
// GUARD_MIN_SENT e-mails sent in the window, journey sends on it are paused. The hourly sweep
// checks them again (`recheckGuards`): sends alone can take a window past GUARD_MIN_SENT with
// its rates already past a threshold, and a rate moves as old days leave the window.

export const REPUTATION_WINDOW_DAYS = 7;
export const GUARD_MIN_SENT = 1000;
export const DEFAULT_GUARD = { complaints: 0.003, bounces: 0.04 } as const;
export type Guard = { complaints: number; bounces: number };

/** The UTC day (`YYYY-MM-DD`) a count lands in. */
export const reputationDay = (at: Date = new Date()) => at.toISOString().slice(0, 10);

/** The first day of the window that ends on `at`'s day. */
const windowStart = (at: Date = new Date()) => reputationDay(new Date(at.getTime() - (REPUTATION_WINDOW_DAYS - 1) * 86_400_000));

/**
 * A CTE body adding counts to the channels' days: `select` gives `workspace_id, channel_id,
 * day, sent, delivered, complaints, bounces`, several rows per key allowed (summed first).
 */
export function addReputation(select: string): string {
  return `INSERT INTO channel_reputation AS r (workspace_id, channel_id, day, sent, delivered, complaints, bounces)
    SELECT workspace_id, channel_id, day, sum(sent)::int, sum(delivered)::int, sum(complaints)::int, sum(bounces)::int
    FROM (${select}) x(workspace_id, channel_id, day, sent, delivered, complaints, bounces)
    WHERE channel_id IS NOT NULL GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (workspace_id, channel_id, day) DO UPDATE SET sent = r.sent + EXCLUDED.sent, delivered = r.delivered + EXCLUDED.delivered,
      complaints = r.complaints + EXCLUDED.complaints, bounces = r.bounces + EXCLUDED.bounces`;
}

export type Reputation = { complaint_rate: number; bounce_rate: number; window_sent: number };

/** The channel's rolling 7-day rates: complaints / delivered and hard bounces / sent (0 with nothing to divide). */
export async function channelReputation(sql: Handle, workspaceId: string, channelId: string, at = new Date()): Promise<Reputation> {
  const [row] = await sql<Counts>(
    `SELECT coalesce(sum(sent), 0)::int AS sent, coalesce(sum(delivered), 0)::int AS delivered,
       coalesce(sum(complaints), 0)::int AS complaints, coalesce(sum(bounces), 0)::int AS bounces
     FROM channel_reputation WHERE workspace_id = $1 AND channel_id = $2 AND day >= $3`,
    [workspaceId, channelId, windowStart(at)],
  );
  return ratesOf(row ?? { sent: 0, delivered: 0, complaints: 0, bounces: 0 });
}

type Counts = { sent: number; delivered: number; complaints: number; bounces: number };

function ratesOf(r: Counts): Reputation {
  const rate = (n: number, d: number) => (d > 0 ? Math.round((n / d) * 1e6) / 1e6 : 0);
  return { complaint_rate: rate(r.complaints, r.delivered), bounce_rate: rate(r.bounces, r.sent), window_sent: r.sent };
}

/** The rates of several of a workspace's channels, in one statement (the dashboard's list). */
export async function reputationsOf(
  sql: Handle,
  workspaceId: string,
  channelIds: string[],
  at = new Date(),
): Promise<Map<string, Reputation>> {
  const out = new Map<string, Reputation>(channelIds.map((id) => [id, ratesOf({ sent: 0, delivered: 0, complaints: 0, bounces: 0 })]));
  if (channelIds.length === 0) return out;
  const rows = await sql<Counts & { channel_id: string }>(
    `SELECT channel_id, sum(sent)::int AS sent, sum(delivered)::int AS delivered, sum(complaints)::int AS complaints, sum(bounces)::int AS bounces
     FROM channel_reputation WHERE workspace_id = $1 AND channel_id = ANY($2::text[]) AND day >= $3 GROUP BY channel_id`,
    [workspaceId, channelIds, windowStart(at)],
  );
  for (const r of rows) out.set(r.channel_id, ratesOf(r));
  return out;
}

/** The workspace's thresholds, the defaults where unset. */
export function guardOf(stored: unknown): Guard {
  const g = (stored && typeof stored === "object" ? stored : {}) as Partial<Record<keyof Guard, unknown>>;
  const pick = (k: keyof Guard) => (typeof g[k] === "number" ? (g[k] as number) : DEFAULT_GUARD[k]);
  return { complaints: pick("complaints"), bounces: pick("bounces") };
}

/**
 * `svc workspace update --guard complaints=R,bounces=R`: either or both thresholds, each a rate
 * above 0 and at most 1; the others kept. Throws a message naming the flag on bad input.
 */
export function parseGuard(text: string): Partial<Guard> {
  const out: Partial<Guard> = {};
  for (const part of text.split(",")) {
    const m = /^(complaints|bounces)=(0?\.\d{1,6}|1(?:\.0*)?|0)$/.exec(part.trim());
    const value = m ? Number(m[2]) : NaN;
    if (!m || !(value > 0 && value <= 1) || m[1]! in out) {
      throw new Error(
        `--guard must be complaints=R,bounces=R with rates above 0 and at most 1, e.g. complaints=0.003,bounces=0.04 (got "${text}").`,
      );
    }
    out[m[1] as keyof Guard] = value;
  }
  return out;
}

/** Stores the thresholds given, keeping the others; the workspace's thresholds as they now are. */
export async function setGuard(sql: Handle, workspaceId: string, guard: Partial<Guard>): Promise<Guard> {
  const [row] = await sql<{ guard: unknown }>(`UPDATE workspaces SET guard = guard || $2::jsonb WHERE id = $1 RETURNING guard`, [
    workspaceId,
    JSON.stringify(guard),
  ]);
  return guardOf(row?.guard);
}

/** The workspace's thresholds as stored, the defaults where unset. */
export async function readGuard(sql: Handle, workspaceId: string): Promise<Guard> {
  const [row] = await sql<{ guard: unknown }>(`SELECT guard FROM workspaces WHERE id = $1`, [workspaceId]);
  return guardOf(row?.guard);
}

/**
 * Checks the channels that just recorded a complaint or hard bounce, in the caller's
 * transaction: a channel past a threshold (with enough sent) has its journey sends paused,
 * with `canal.pausado` (reason `complaint_rate` or `bounce_rate`). A paused channel stays so.
 * How many it paused.
 */
export async function checkGuard(sql: Handle, channels: { workspaceId: string; channelId: string }[]): Promise<number> {
  let paused = 0;
  for (const { workspaceId, channelId } of channels) {
    const [ws] = await sql<{ guard: unknown; paused: boolean }>(
      `SELECT w.guard, EXISTS (SELECT 1 FROM channels c WHERE c.workspace_id = w.id AND c.id = $2 AND c.paused_at IS NOT NULL) AS paused
       FROM workspaces w WHERE w.id = $1`,
      [workspaceId, channelId],
    );
    if (!ws || ws.paused) continue;
    const reputation = await channelReputation(sql, workspaceId, channelId);
    if (reputation.window_sent < GUARD_MIN_SENT) continue;
    const guard = guardOf(ws.guard);
    const reason =
      reputation.complaint_rate > guard.complaints ? "complaint_rate" : reputation.bounce_rate > guard.bounces ? "bounce_rate" : null;
    if (reason && (await pauseChannel(sql, workspaceId, channelId, reason))) paused++;
  }
  return paused;
}

/**
 * The guard again for each e-mail channel with counts in the window that is neither paused nor
 * disconnected (the hourly sweep), each channel in its own short transaction. The channels
 * paused.
 */
export async function recheckGuards(database: Database, at = new Date()): Promise<number> {
  const channels = await database.query<{ workspace_id: string; channel_id: string }>(
    `SELECT DISTINCT r.workspace_id, r.channel_id FROM channel_reputation r
     JOIN channels c ON c.workspace_id = r.workspace_id AND c.id = r.channel_id
     WHERE r.day >= $1 AND c.paused_at IS NULL AND c.disconnected_at IS NULL ORDER BY 1, 2`,
    [windowStart(at)],
  );
  let paused = 0;
  for (const c of channels) {
    if (await database.transaction((sql) => checkGuard(sql, [{ workspaceId: c.workspace_id, channelId: c.channel_id }]))) paused++;
  }
  return paused;
}
