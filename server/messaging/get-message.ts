import type { Database } from "../db/client.ts";
import { notFound } from "../lib/errors.ts";
import { MESSAGE_VIEW_COLUMNS, messageView, type Message, type MessageRow } from "./message-schemas.ts";
import type { CallerInWorkspace } from "../lib/caller.ts";
import type { KeyMode } from "../generated/prisma/enums.ts";
import type { Columns } from "../db/rows.ts";

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

/**
 * The mode a caller acts on a message in: a key's own (D40); a dashboard user acts in both
 * modes, so the message's, or `live` when there is none (which then reads as a 404).
 */
export async function callerMode(database: Database, caller: CallerInWorkspace, id: string): Promise<KeyMode> {
  if (caller.kind !== "user") return caller.mode;
  const [row] = await database.query<Columns<"messages", "mode">>(`SELECT mode FROM messages WHERE id = $1 AND workspace_id = $2`, [
    id,
    caller.workspaceId,
  ]);
  return row?.mode ?? "live";
}
