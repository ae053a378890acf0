import type { Database } from "../db/client.ts";
import { notFound } from "../lib/errors.ts";
import { MESSAGE_VIEW_COLUMNS, messageView, type Message, type MessageRow } from "./message-schemas.ts";
import type { CallerInWorkspace } from "../lib/caller.ts";

/**
 * D40: a message belongs to its key's mode; another mode's or workspace's message is a 404.
 * One statement on the driver: integrations poll this endpoint, so it stays off the ORM's
 * per-query compilation.
 */
export async function getMessageOrThrow(
  database: Database,
  actor: Pick<CallerInWorkspace, "workspaceId" | "mode">,
  id: string,
): Promise<Message> {
  const [row] = await database.query<MessageRow>(
    `SELECT ${MESSAGE_VIEW_COLUMNS} FROM messages m WHERE m.id = $1 AND m.workspace_id = $2 AND m.mode = $3::"KeyMode"`,
    [id, actor.workspaceId, actor.mode],
  );
  if (!row) throw notFound("message", "id");
  return messageView(row);
}
