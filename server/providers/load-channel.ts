import type { Database } from "../db/client.ts";
import { openSecrets } from "../lib/crypto.ts";
import type { ChannelConfig } from "./provider.ts";
import type { Channel as ChannelModel } from "../generated/prisma/client.ts";

/** A channel's columns as a provider call needs them (`ConfigRow`), for every statement that reads them. */
export const CONFIG_COLUMNS = `id, workspace_id AS "workspaceId", type::text AS type, external_id AS "externalId", settings, secrets,
  rate_per_second AS "ratePerSecond", disconnected_at AS "disconnectedAt", paused_reason AS "pausedReason"`;

// A statement of its own, not through the ORM, whose query engine cost half a millisecond of
// CPU a call. The pipeline reads a claim's channels with their pacing (`reserveSlots`).
const CHANNEL_BY_ID = `SELECT ${CONFIG_COLUMNS} FROM channels WHERE id = $1`;

/** What a provider call needs of a channel's row. */
export type ConfigRow = Pick<
  ChannelModel,
  "id" | "workspaceId" | "type" | "externalId" | "settings" | "secrets" | "ratePerSecond" | "disconnectedAt"
> &
  Partial<Pick<ChannelModel, "pausedReason">>;

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
  const [row] = await database.query<ConfigRow>(CHANNEL_BY_ID, [channelId]);
  return usableChannel(row ?? null, opts);
}

/** A row read with CONFIG_COLUMNS as `loadChannel` answers it. */
export function usableChannel(row: ConfigRow | null, opts: { includeDisconnected?: boolean } = {}): ChannelConfig | null {
  if (!row || (row.disconnectedAt && !opts.includeDisconnected)) return null;
  return channelConfig(row);
}

export function channelConfig(row: ConfigRow): ChannelConfig {
  return {
    id: row.id,
    workspaceId: row.workspaceId,
    type: row.type,
    externalId: row.externalId,
    settings: settingsOf(row.settings),
    secrets: openSecrets(row.secrets),
    ratePerSecond: row.ratePerSecond,
    pausedReason: row.pausedReason ?? null,
  };
}

/** Stored settings as strings (the JSON column is written only by connectChannel). */
export function settingsOf(value: unknown): Record<string, string> {
  if (!value || typeof value !== "object" || Array.isArray(value)) return {};
  return Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === "string"));
}
