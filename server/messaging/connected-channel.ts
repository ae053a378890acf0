import type { ChannelType } from "../generated/prisma/enums.ts";
import type { Database, Handle } from "../db/client.ts";
import { conflict } from "../lib/errors.ts";
import { batchedRows } from "../lib/batched-rows.ts";
import { versionedCache } from "../lib/versioned-cache.ts";
import { channelPausedError, stopsEverySend } from "../channels/channel-pause.ts";

// The oldest connected channel of each key (`<type> <workspace id>`: the type has no space,
// the rest is the id whatever it holds): one statement for the live sends of a tick (every
// live send without `channel_id` asks), or for a flow run's one.
const CONNECTED_CHANNELS = `
  SELECT DISTINCT ON (k.key) k.key AS id, c.id AS channel, c.paused_reason AS paused
  FROM unnest($1::text[]) AS k(key)
  JOIN channels c ON c.type = split_part(k.key, ' ', 1)::"ChannelType" AND c.workspace_id = substr(k.key, strpos(k.key, ' ') + 1)
   AND c.disconnected_at IS NULL
  ORDER BY k.key, c.created_at, c.id`;

type Connected = { id: string; channel: string; paused: string | null };

const connectedChannelBatched = batchedRows<Connected>(CONNECTED_CHANNELS);

/**
 * The oldest connected channel of the type; a live send without one is a 409 (D16). Read
 * with the process's concurrent sends (`database`), or through a flow run's transaction (`sql`).
 * With `version`, the workspace's templates_version that the request's key check read: an
 * answer read at that version is given again from memory (`versionedCache`), since connecting
 * or disconnecting a channel changes the version.
 */
export async function connectedChannel(
  via: { database: Database; version?: string } | { sql: Handle },
  workspaceId: string,
  type: ChannelType,
): Promise<string> {
  return (await connectedChannelRow(via, workspaceId, type)).channel;
}

/** `connectedChannel` with the channel's `paused_reason` as read (`paused`): a flow's send checks the reputation guard on it (D93). */
export async function connectedChannelRow(
  via: { database: Database; version?: string } | { sql: Handle },
  workspaceId: string,
  type: ChannelType,
): Promise<Connected> {
  const key = `${type} ${workspaceId}`;
  const found =
    "sql" in via
      ? ((await via.sql<Connected>(CONNECTED_CHANNELS, [[key]]))[0] ?? null)
      : await connectedChannels(via.database, key, via.version, async () => (await connectedChannelBatched(via.database, key)) ?? null);
  if (!found) throw conflict("channel_not_connected", `No ${type} channel is connected: connect one in the dashboard first.`, "channel");
  // D90: a channel WhatsApp stopped refuses every live send until it is resumed.
  if (stopsEverySend(found.paused)) throw channelPausedError({ id: found.channel, type }, found.paused!);
  return found;
}

/** Workspaces' connected channels kept per process and database (about 100 bytes each). */
const connectedChannels = versionedCache<Connected | null>(20_000);
