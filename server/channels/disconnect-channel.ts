import type { Caller } from "../lib/caller.ts";
import { recordAudit } from "../audit/record-audit.ts";
import { prismaHandle } from "../db/prisma-handle.ts";
import type { Database } from "../db/client.ts";
import { notFound } from "../lib/errors.ts";
import { bumpTemplatesVersion } from "../whatsapp/templates-version.ts";

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
    // The enum column is read apart from the write (D87: Citus refuses its text cast in RETURNING);
    // only the statement that disconnected records it.
    const connected = await tx.channel.findFirst({
      where: { id: channelId, workspaceId, disconnectedAt: null },
      select: { type: true, name: true, externalId: true },
    });
    const { count } = await tx.channel.updateMany({
      where: { id: channelId, workspaceId, disconnectedAt: null },
      data: { disconnectedAt: new Date() },
    });
    const channel = count === 1 ? connected : null;
    if (channel) {
      await bumpTemplatesVersion(prismaHandle(tx), [workspaceId]);
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
