import type { Database } from "../db/client.ts";
import type { Mode } from "../keys/scopes.ts";
import { listPage, NEWEST_FIRST, type PageQuery } from "../lib/pagination.ts";
import { MESSAGE_SELECT, messageView, type Message } from "./message-schemas.ts";

export type MessageFilter = {
  status?: Message["status"];
  channel?: Message["channel"];
  direction?: "inbound" | "outbound";
  contact_id?: string;
  created_after?: Date;
  created_before?: Date;
};

/**
 * GET /messages (D57): the key's mode's messages (D40), newest first, filtered, in D10's pages.
 * The index on (workspace_id, mode, created_at DESC, id DESC) serves the order and the cursor.
 */
export async function listMessages(
  database: Database,
  actor: { workspaceId: string; mode: Mode },
  filter: MessageFilter,
  query: PageQuery,
  url: string,
): Promise<{ items: Message[]; link: string | null }> {
  const scope = { workspaceId: actor.workspaceId, mode: actor.mode };
  const where = {
    ...scope,
    ...(filter.status ? { status: filter.status } : {}),
    ...(filter.channel ? { channel: filter.channel } : {}),
    ...(filter.contact_id ? { contactId: filter.contact_id } : {}),
    ...(filter.direction ? { direction: filter.direction } : {}),
    ...(filter.created_after || filter.created_before
      ? {
          createdAt: {
            ...(filter.created_after ? { gt: filter.created_after } : {}),
            ...(filter.created_before ? { lt: filter.created_before } : {}),
          },
        }
      : {}),
  };
  const { items, link } = await listPage(
    query,
    url,
    (id) => database.prisma.message.findFirst({ where: { id, ...scope }, select: { id: true, createdAt: true } }),
    (after, take) =>
      database.prisma.message.findMany({ where: { AND: [where, after] }, orderBy: NEWEST_FIRST, take, select: MESSAGE_SELECT }),
    "desc",
  );
  return { items: items.map(messageView), link };
}
