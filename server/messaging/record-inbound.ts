import type { ChannelType } from "../generated/prisma/enums.ts";
import { findContactBy } from "../contacts/get-contact.ts";
import { updateContact, upsertContact } from "../contacts/upsert-contact.ts";
import type { Contact } from "../contacts/contact-schemas.ts";
import { AppError } from "../lib/errors.ts";
import type { Database, Handle } from "../db/client.ts";
import { channelOf } from "../channels/registry.ts";
import { insertEvent } from "../events/record-event.ts";
import { newId } from "../lib/ids.ts";
import { insertHistory } from "./message-history.ts";
import type { Columns } from "../db/rows.ts";

// Inbound WhatsApp messages (D44): the Cloud API's `messages[]` webhook items, stored as
// Messages with `direction: "inbound"` and status `received`, the sender matched to a contact
// (or one created, D15), the contact's 24-hour window opened (D43) and `mensagem.recebida`
// recorded in the same transaction as the message.

/** The 24-hour customer-service window (D43). */
export const WINDOW_MS = 24 * 60 * 60_000;

export type InboundItem = {
  /** The sender's phone, E.164; null when WhatsApp withholds it (D88). */
  from: string | null;
  /** D88: the sender's WhatsApp user id, its username and its parent user id (kept, never matched on). */
  userId: string | null;
  username: string | null;
  parentUserId: string | null;
  wamid: string;
  at: Date;
  /** Text, media caption, or the title of the chosen button or list row. */
  text: string | null;
  mediaType: string | null;
  /** The sender's WhatsApp profile name, when Meta sent it. */
  profileName: string | null;
  /** Meta's item as received, kept in the message's content. */
  raw: Record<string, unknown>;
};

export type InboundOutcome = "recorded" | "duplicate";

// `$9`: the end of the contact's window the message opens (D43), null on a channel without one.
const INSERT_INBOUND = `
  WITH m AS (
    INSERT INTO messages (id, workspace_id, mode, channel, channel_id, contact_id, "to", status, content, source, direction, provider_message_id, created_at)
    VALUES ($1, $2, 'live', $10::"ChannelType", $3, $4, NULL, 'received', $5::jsonb, 'inbound', 'inbound', $6, $7)
    RETURNING id
  ), h AS (
    ${insertHistory("SELECT $2, id, $7, 'provider_report', 'received', $8::jsonb FROM m")}
  ), w AS (
    UPDATE contacts SET whatsapp_window_expires_at = greatest(coalesce(whatsapp_window_expires_at, $9), $9)
    WHERE workspace_id = $2 AND id = $4 AND $9::timestamptz IS NOT NULL
  )
  SELECT id FROM m`;

/**
 * Records one inbound message for a workspace's channel (WhatsApp unless `type` says); a
 * redelivered one is recorded once. `also` runs in the same transaction when it is recorded,
 * with the sender's contact (D96: an sms's opt-out words).
 */
export async function recordInbound(
  database: Database,
  channel: { id: string; workspaceId: string; type?: ChannelType },
  item: InboundItem,
  also?: (sql: Handle, contact: Contact) => Promise<void>,
): Promise<InboundOutcome> {
  const type = channel.type ?? "whatsapp";
  const contact = await senderContact(database, channel.workspaceId, item);
  return database.transaction(async (sql) => {
    // Meta redelivers a webhook it did not see answered: the wamid identifies the message.
    const [seen] = await sql<Columns<"messages", "id">>(
      `SELECT id FROM messages WHERE provider_message_id = $1 AND channel_id = $2 AND direction = 'inbound' LIMIT 1`,
      [item.wamid, channel.id],
    );
    if (seen) return "duplicate";
    const id = newId("message");
    const content = {
      text: item.text,
      media_type: item.mediaType,
      from: item.from,
      ...(item.userId ? { from_user_id: item.userId } : {}),
      ...(item.parentUserId ? { parent_user_id: item.parentUserId } : {}),
      [type]: item.raw,
    };
    await sql(INSERT_INBOUND, [
      id,
      channel.workspaceId,
      channel.id,
      contact.id,
      JSON.stringify(content),
      item.wamid,
      item.at,
      JSON.stringify({ inbound: true }),
      channelOf(type).window ? new Date(item.at.getTime() + WINDOW_MS) : null,
      type,
    ]);
    await insertEvent(sql, {
      workspaceId: channel.workspaceId,
      mode: "live",
      name: "mensagem.recebida",
      contactId: contact.id,
      data: { id, channelType: type, contact: contact.id, direction: "inbound", text: item.text, media_type: item.mediaType },
    });
    await also?.(sql, contact);
    return "recorded";
  });
}

/**
 * D88: the sender's contact, matched by user id first, then by phone; a new sender (with or
 * without a phone) gets a contact. A matched contact learns the user id, the phone and the
 * username it lacks; a value another contact holds is left where it is.
 */
async function senderContact(database: Database, workspaceId: string, item: InboundItem): Promise<Contact> {
  const actor = { workspaceId, mode: "live" as const };
  const known =
    (item.userId ? await findContactBy(database.query, workspaceId, { whatsapp_user_id: item.userId }) : null) ??
    (item.from ? await findContactBy(database.query, workspaceId, { phone: item.from }) : null);
  if (!known) {
    return upsertContact(database, actor, {
      ...(item.from ? { phone: item.from } : {}),
      ...(item.userId ? { whatsapp_user_id: item.userId } : {}),
      ...(item.username ? { whatsapp_username: item.username } : {}),
      ...(item.profileName ? { name: item.profileName } : {}),
    });
  }
  const learned = {
    ...(item.userId && !known.whatsapp_user_id ? { whatsapp_user_id: item.userId } : {}),
    ...(item.from && !known.phone ? { phone: item.from } : {}),
    ...(item.username && item.username !== known.whatsapp_username ? { whatsapp_username: item.username } : {}),
  };
  if (Object.keys(learned).length === 0) return known;
  try {
    return await updateContact(database, actor, known.id, learned);
  } catch (err) {
    if (err instanceof AppError && err.type === "conflict") return known;
    throw err;
  }
}
