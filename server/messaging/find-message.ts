import type { Database } from "../db/client.ts";

/** The message a provider report is about: its provider id within the channel that sent it. */
export async function findMessageByProviderId(
  database: Database,
  channelId: string,
  providerMessageId: string,
): Promise<{ id: string } | null> {
  return database.prisma.message.findFirst({ where: { channelId, providerMessageId }, select: { id: true } });
}
