import type { Database } from "../db/client.ts";
import type { Mode } from "../keys/scopes.ts";
import { notFound } from "../lib/errors.ts";
import { MESSAGE_SELECT, messageView, type Message } from "./message-schemas.ts";

/** D40: a message belongs to its key's mode; another mode's or workspace's message is a 404. */
export async function getMessageOrThrow(database: Database, actor: { workspaceId: string; mode: Mode }, id: string): Promise<Message> {
  const row = await database.prisma.message.findFirst({
    where: { id, workspaceId: actor.workspaceId, mode: actor.mode },
    select: MESSAGE_SELECT,
  });
  if (!row) throw notFound("message", "id");
  return messageView(row);
}
