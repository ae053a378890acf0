import type { Database } from "../db/client.ts";
import { notFound } from "../lib/errors.ts";
import { channelOf } from "./registry.ts";
import { channelReputation, reputationsOf } from "./reputation.ts";
import { openSecrets } from "../lib/crypto.ts";
import { env } from "../lib/env.ts";
import { settingsOf } from "../providers/load-channel.ts";
import { CHANNEL_SELECT, callbackUrl, SECRET_NAMES, type Channel, type ChannelRow } from "./channel-schemas.ts";

/** The workspace's channels, oldest first; secrets are never returned, only which are set. */
export async function listChannels(
  database: Database,
  workspaceId: string,
  opts: { includeDisconnected?: boolean } = {},
): Promise<Channel[]> {
  const rows = await database.prisma.channel.findMany({
    where: { workspaceId, ...(opts.includeDisconnected ? {} : { disconnectedAt: null }) },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: CHANNEL_SELECT,
  });
  const reputations = await reputationsOf(
    database.query,
    workspaceId,
    rows.filter((r) => channelOf(r.type).reputationGuard).map((r) => r.id),
  );
  return rows.map((row) => ({ ...channelView(row), reputation: reputations.get(row.id) ?? null }));
}

/** D93: `GET /channels/{id}`: one channel without secrets, an e-mail channel with its reputation. */
export async function getChannel(database: Database, workspaceId: string, channelId: string): Promise<Channel> {
  const row = await database.prisma.channel.findFirst({ where: { id: channelId, workspaceId }, select: CHANNEL_SELECT });
  if (!row) throw notFound("channel", "id");
  const reputation = channelOf(row.type).reputationGuard ? await channelReputation(database.query, workspaceId, row.id) : null;
  return { ...channelView(row), reputation };
}

export function channelView(row: ChannelRow): Channel {
  let secretsSet: string[] = [];
  let readable = true;
  try {
    const secrets = openSecrets(row.secrets);
    secretsSet = SECRET_NAMES[row.type].filter((name) => Boolean(secrets[name]));
  } catch {
    readable = false;
  }
  return {
    id: row.id,
    type: row.type,
    name: row.name,
    external_id: row.externalId,
    settings: settingsOf(row.settings),
    templates_synced_at: row.templatesSyncedAt?.toISOString() ?? null,
    secrets_set: secretsSet,
    secrets_readable: readable,
    callback_url: callbackUrl(row, env().appUrl),
    rate_per_second: row.ratePerSecond,
    created_at: row.createdAt.toISOString(),
    disconnected_at: row.disconnectedAt?.toISOString() ?? null,
    status: row.disconnectedAt ? "disconnected" : row.pausedReason ? "paused" : "connected",
    paused_reason: (row.pausedReason as Channel["paused_reason"]) ?? null,
    paused_at: row.pausedAt?.toISOString() ?? null,
    reputation: null,
  };
}
