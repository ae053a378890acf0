import type { Database } from "../db/client.ts";
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
  return rows.map((row) => channelView(row));
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
    callback_url: callbackUrl(row.type, env().appUrl),
    rate_per_second: row.ratePerSecond,
    created_at: row.createdAt.toISOString(),
    disconnected_at: row.disconnectedAt?.toISOString() ?? null,
  };
}
