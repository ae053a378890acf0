import type { Database } from "../db/client.ts";
import { notFound } from "../lib/errors.ts";

/**
 * Stops a channel from sending: its row is kept (messages refer to it, and late provider
 * reports for its messages still apply) with `disconnected_at` set. Disconnecting twice is a
 * no-op.
 */
export async function disconnectChannel(database: Database, workspaceId: string, channelId: string): Promise<{ disconnected: true }> {
  const { count } = await database.prisma.channel.updateMany({
    where: { id: channelId, workspaceId, disconnectedAt: null },
    data: { disconnectedAt: new Date() },
  });
  if (count === 0 && !(await database.prisma.channel.count({ where: { id: channelId, workspaceId } }))) {
    throw notFound("channel", "channel_id");
  }
  return { disconnected: true };
}
