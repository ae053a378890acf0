import type { Caller } from "../lib/caller.ts";
import { recordAudit } from "../audit/record-audit.ts";
import { prismaHandle } from "../db/prisma-handle.ts";
import type { Database } from "../db/client.ts";
import { notFound } from "../lib/errors.ts";

/**
 * Stops a channel from sending: its row is kept (messages refer to it, and late provider
 * reports for its messages still apply) with `disconnected_at` set. Disconnecting twice is a
 * no-op.
 */
export async function disconnectChannel(
  database: Database,
  workspaceId: string,
  channelId: string,
  actor: Caller,
): Promise<{ disconnected: true }> {
  await database.prisma.$transaction(async (tx) => {
    const [channel] = await tx.channel.updateManyAndReturn({
      where: { id: channelId, workspaceId, disconnectedAt: null },
      data: { disconnectedAt: new Date() },
      select: { type: true, name: true, externalId: true },
    });
    if (channel) {
      await recordAudit(prismaHandle(tx), actor, {
        workspaceId,
        action: "channel.disconnected",
        target: { type: "channel", id: channelId },
        detail: { type: channel.type, name: channel.name, external_id: channel.externalId },
      });
    } else if (!(await tx.channel.count({ where: { id: channelId, workspaceId } }))) {
      throw notFound("channel", "channel_id");
    }
  });
  return { disconnected: true };
}
