import type { Database } from "../db/client.ts";
import { listPage, type Cursor, type PageQuery } from "../lib/pagination.ts";
import { MESSAGE_VIEW_COLUMNS, messageView, type Message, type MessageRow } from "./message-schemas.ts";
import type { CallerInWorkspace } from "../lib/caller.ts";

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
 * Statements on the driver, as `GET /messages/{id}`: integrations poll this list.
 */
export async function listMessages(
  database: Database,
  actor: Pick<CallerInWorkspace, "workspaceId" | "mode">,
  filter: MessageFilter,
  query: PageQuery,
  url: string,
): Promise<{ items: Message[]; link: string | null }> {
  const { items, link } = await listPage(
    query,
    url,
    async (id) => {
      const [cursor] = await database.query<Cursor>(
        `SELECT id, created_at AS "createdAt" FROM messages WHERE id = $1 AND workspace_id = $2 AND mode = $3::"KeyMode"`,
        [id, actor.workspaceId, actor.mode],
      );
      return cursor ?? null;
    },
    (_, take, cursor) => selectPage(database, actor, filter, take, cursor),
    "desc",
  );
  return { items: items.map(messageView), link };
}

function selectPage(
  database: Database,
  actor: Pick<CallerInWorkspace, "workspaceId" | "mode">,
  filter: MessageFilter,
  take: number,
  cursor: Cursor | null,
) {
  const values: unknown[] = [actor.workspaceId, actor.mode];
  const param = (value: unknown) => `$${values.push(value)}`;
  const where = [`m.workspace_id = $1`, `m.mode = $2::"KeyMode"`];
  if (filter.status) where.push(`m.status = ${param(filter.status)}::"MessageStatus"`);
  if (filter.channel) where.push(`m.channel = ${param(filter.channel)}::"ChannelType"`);
  if (filter.contact_id) where.push(`m.contact_id = ${param(filter.contact_id)}`);
  if (filter.direction) where.push(`m.direction = ${param(filter.direction)}`);
  if (filter.created_after) where.push(`m.created_at > ${param(filter.created_after)}`);
  if (filter.created_before) where.push(`m.created_at < ${param(filter.created_before)}`);
  if (cursor) where.push(`(m.created_at, m.id) < (${param(cursor.createdAt)}, ${param(cursor.id)})`);
  return database.query<MessageRow>(
    `SELECT ${MESSAGE_VIEW_COLUMNS} FROM messages m WHERE ${where.join(" AND ")} ORDER BY m.created_at DESC, m.id DESC LIMIT ${param(take)}`,
    values,
  );
}
