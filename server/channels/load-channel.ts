import type { Database } from "../db/client.ts";
import { openSecrets } from "../lib/crypto.ts";
import type { ChannelConfig } from "../providers/provider.ts";
import { CHANNEL_SELECT, settingsOf, type ChannelRow } from "./channel-schemas.ts";

/**
 * A channel with its secrets decrypted, for a provider call. Null when it does not exist or
 * is disconnected (unless `includeDisconnected`); throws when its secrets cannot be opened
 * (AUTH_SECRET changed), which is an operator error, not a message's.
 */
export async function loadChannel(
  database: Database,
  channelId: string,
  opts: { includeDisconnected?: boolean } = {},
): Promise<ChannelConfig | null> {
  const row = await database.prisma.channel.findUnique({ where: { id: channelId }, select: { ...CHANNEL_SELECT, workspaceId: true } });
  if (!row || (row.disconnectedAt && !opts.includeDisconnected)) return null;
  return channelConfig(row);
}

export function channelConfig(row: ChannelRow & { workspaceId: string }): ChannelConfig {
  return {
    id: row.id,
    workspaceId: row.workspaceId,
    type: row.type,
    externalId: row.externalId,
    settings: settingsOf(row.settings),
    secrets: openSecrets(row.secrets),
    ratePerSecond: row.ratePerSecond,
  };
}
