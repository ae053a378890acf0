import type { Database } from "../db/client.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { listPage, NEWEST_FIRST, type PageQuery } from "../lib/pagination.ts";
import { MESSAGE_SELECT, messageView } from "./message-schemas.ts";

// The dashboard's message inspector (admins and support staff): find messages by id, phone
// or e-mail; filter by status, channel, mode and date; open one with its whole history.

export type MessageFilter = {
  q?: string;
  status?: "queued" | "sent" | "delivered" | "read" | "failed";
  channel?: "whatsapp" | "email";
  mode?: "test" | "live";
  from?: Date;
  to?: Date;
};

export async function searchMessages(database: Database, workspaceId: string, filter: MessageFilter, query: PageQuery) {
  const q = filter.q?.trim();
  const where: Prisma.MessageWhereInput = {
    workspaceId,
    ...(filter.status ? { status: filter.status } : {}),
    ...(filter.channel ? { channel: filter.channel } : {}),
    ...(filter.mode ? { mode: filter.mode } : {}),
    ...(filter.from || filter.to
      ? { createdAt: { ...(filter.from ? { gte: filter.from } : {}), ...(filter.to ? { lt: filter.to } : {}) } }
      : {}),
    ...(q
      ? { OR: [{ id: q }, { providerMessageId: q }, { to: { contains: q.startsWith("+") ? q : q.toLowerCase(), mode: "insensitive" } }] }
      : {}),
  };
  const { items, next } = await listPage(
    query,
    null,
    (id) => database.prisma.message.findFirst({ where: { id, workspaceId }, select: { id: true, createdAt: true } }),
    (after, take) =>
      database.prisma.message.findMany({
        where: { AND: [where, after] },
        orderBy: NEWEST_FIRST,
        take,
        select: { ...MESSAGE_SELECT, mode: true, contactId: true },
      }),
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
