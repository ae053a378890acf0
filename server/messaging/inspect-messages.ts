import type { Database } from "../db/client.ts";
import { listPage, type PageQuery } from "../lib/pagination.ts";
import { normalizePhone } from "../lib/phone.ts";
import { messageView, type MessageRow } from "./message-schemas.ts";

// The dashboard's message inspector (admins and support staff): find messages by id, phone
// or e-mail; filter by status, channel, mode and date; open one with its whole history.

export type MessageFilter = {
  q?: string;
  status?: "queued" | "sent" | "delivered" | "read" | "failed" | "received";
  channel?: "whatsapp" | "email";
  mode?: "test" | "live";
  from?: Date;
  to?: Date;
};

const PHONE_LIKE = /^\+?[\d\s().-]+$/;

/**
 * What the search box holds, as the condition an index answers (docs/messages.md "Growth"):
 * an e-mail address or a phone number is matched whole on lower("to") (the index on
 * workspace_id, lower("to"), created_at, id); anything else is a message id or a provider
 * message id (the primary key or the provider id's index). A phone is normalized as sends are
 * (D1), with the workspace's default country; one that cannot be a phone matches nothing.
 */
async function searchCondition(database: Database, workspaceId: string, q: string): Promise<{ sql: string; value: string } | null> {
  if (q.includes("@")) return { sql: `lower("to") = lower($Q)`, value: q.trim() };
  if (PHONE_LIKE.test(q) && /\d/.test(q)) {
    const ws = await database.prisma.workspace.findUnique({ where: { id: workspaceId }, select: { defaultCountry: true } });
    try {
      return { sql: `lower("to") = $Q`, value: normalizePhone(q, ws?.defaultCountry ?? null, "q") };
    } catch {
      return null;
    }
  }
  return { sql: `(id = $Q OR provider_message_id = $Q)`, value: q };
}

type Row = MessageRow & { mode: "test" | "live"; contactId: string };

/**
 * The inspector's list, newest first, always within the workspace, paged by (created_at, id):
 * every form reads only the rows it returns through an index, however many messages the
 * workspace and the others hold.
 */
export async function searchMessages(database: Database, workspaceId: string, filter: MessageFilter, query: PageQuery) {
  const q = filter.q?.trim();
  const search = q ? await searchCondition(database, workspaceId, q) : null;
  if (q && !search) return { items: [], next: null };
  const { items, next } = await listPage(
    query,
    null,
    (id) => database.prisma.message.findFirst({ where: { id, workspaceId }, select: { id: true, createdAt: true } }),
    (_where, take, cursor) => {
      const values: unknown[] = [workspaceId];
      const param = (value: unknown) => `$${values.push(value)}`;
      const where = ["workspace_id = $1"];
      if (search) where.push(search.sql.replaceAll("$Q", param(search.value)));
      if (filter.mode) where.push(`mode = ${param(filter.mode)}::"KeyMode"`);
      if (filter.channel) where.push(`channel = ${param(filter.channel)}::"ChannelType"`);
      if (filter.status) where.push(`status = ${param(filter.status)}::"MessageStatus"`);
      if (filter.from) where.push(`created_at >= ${param(filter.from)}`);
      if (filter.to) where.push(`created_at < ${param(filter.to)}`);
      if (cursor) where.push(`(created_at, id) < (${param(cursor.createdAt)}, ${param(cursor.id)})`);
      return database.query<Row>(
        `SELECT id, status::text AS status, channel::text AS channel, direction, "to", provider_message_id AS "providerMessageId", error, error_code AS "errorCode",
                sent_at AS "sentAt", delivered_at AS "deliveredAt", read_at AS "readAt", created_at AS "createdAt",
                mode::text AS mode, contact_id AS "contactId"
         FROM messages WHERE ${where.join(" AND ")} ORDER BY created_at DESC, id DESC LIMIT ${param(take)}`,
        values,
      );
    },
    "desc",
  );
  return { items: items.map((m) => ({ ...messageView(m), mode: m.mode, contact_id: m.contactId })), next };
}

/** One message with its rendered content and its history, oldest first. */
export async function messageDetail(database: Database, workspaceId: string, id: string) {
  const m = await database.prisma.message.findFirst({
    where: { id, workspaceId },
    include: { history: { orderBy: [{ at: "asc" }, { id: "asc" }] } },
  });
  if (!m) return null;
  return {
    ...messageView(m),
    mode: m.mode,
    contact_id: m.contactId,
    channel_id: m.channelId,
    source: m.source,
    content: m.content,
    failed_at: m.failedAt?.toISOString() ?? null,
    history: m.history.map((h) => ({ id: String(h.id), at: h.at.toISOString(), kind: h.kind, status: h.status, detail: h.detail })),
  };
}
