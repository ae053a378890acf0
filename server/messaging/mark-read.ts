import { z } from "zod";
import type { Database } from "../db/client.ts";
import type { CallerInWorkspace } from "../lib/caller.ts";
import { conflict, notFound } from "../lib/errors.ts";
import { loadChannel } from "../providers/load-channel.ts";
import { markReadAtMeta } from "../providers/whatsapp-cloud.ts";
import { insertHistory } from "./message-history.ts";
import { callerMode } from "./get-message.ts";

export const ZMarkRead = z.object({
  id: z.string(),
  read_at: z.string().describe("When the message was first marked read; the same on every later call."),
});
export type MarkRead = z.infer<typeof ZMarkRead>;

type Row = {
  direction: string;
  channel: string;
  channelId: string | null;
  wamid: string | null;
  readAt: Date | null;
};

const notInbound = (why: string) =>
  conflict("not_inbound", `The message is ${why}: only an inbound WhatsApp message can be marked read.`, "id");

/**
 * D91: marks an inbound WhatsApp message read at Meta (`"status": "read"`), and shows the
 * typing indicator when asked. `read_at` is set once, after Meta took the receipt: a second
 * call answers the first `read_at` (and, with `typing`, shows the indicator again; without,
 * it calls Meta no more). Nothing is recorded when Meta refuses.
 */
export async function markRead(database: Database, caller: CallerInWorkspace, id: string, typing = false): Promise<MarkRead> {
  const mode = await callerMode(database, caller, id);
  const [row] = await database.query<Row>(
    `SELECT direction, channel::text AS channel, channel_id AS "channelId", provider_message_id AS wamid, read_at AS "readAt"
       FROM messages WHERE workspace_id = $1 AND id = $2 AND mode = $3::"KeyMode"`,
    [caller.workspaceId, id, mode],
  );
  if (!row) throw notFound("message", "id");
  if (row.direction !== "inbound") throw notInbound("outbound");
  if (row.channel !== "whatsapp" || !row.channelId || !row.wamid) throw notInbound(`an inbound ${row.channel} message`);
  if (row.readAt && !typing) return { id, read_at: row.readAt.toISOString() };
  const channel = await loadChannel(database, row.channelId);
  if (!channel || channel.workspaceId !== caller.workspaceId) {
    throw conflict("read_not_sent", "The message's WhatsApp channel is disconnected: the read receipt cannot be sent.", "id");
  }
  const refused = await markReadAtMeta(channel, row.wamid, typing);
  if (refused) throw conflict("read_not_sent", `The WhatsApp Cloud API did not take the read receipt: ${refused}.`, "id");
  // The first call sets read_at, with one history entry; a later one (or one racing it) reads it.
  const by = caller.kind === "user" ? "dashboard" : "api";
  const detail = JSON.stringify({
    marked_read: true,
    typing,
    by,
    // The message timeline shows a note's message as it is.
    message: `Marked read at WhatsApp from the ${by === "api" ? "API" : "dashboard"}${typing ? ", with the typing indicator" : ""}.`,
  });
  const [set] = await database.query<{ readAt: Date }>(
    `WITH r AS (
       UPDATE messages SET read_at = now() WHERE workspace_id = $1 AND id = $2 AND read_at IS NULL RETURNING read_at
     ), h AS (
       ${insertHistory(`SELECT $1, $2, read_at, 'note', NULL, $3::jsonb FROM r`)}
     )
     SELECT read_at AS "readAt" FROM r`,
    [caller.workspaceId, id, detail],
  );
  const updated =
    set ??
    (
      await database.query<{ readAt: Date }>(`SELECT read_at AS "readAt" FROM messages WHERE workspace_id = $1 AND id = $2`, [
        caller.workspaceId,
        id,
      ])
    )[0];
  return { id, read_at: updated!.readAt.toISOString() };
}
