import type { Database } from "../db/client.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { listPage, PAGE_ORDER, type PageQuery } from "../lib/pagination.ts";
import { CONTACT_SELECT, contactView } from "./contact-schemas.ts";

/**
 * The dashboard's contact search: by phone (digits anywhere in the E.164 number), e-mail,
 * name or WhatsApp username (case-insensitive substring, a leading @ or not), or a whole WhatsApp user id (D88),
 * in creation order, paged like the API lists (D10).
 */
export async function searchContacts(database: Database, workspaceId: string, q: string, query: PageQuery) {
  const text = q.trim();
  const digits = text.replace(/\D/g, "");
  const match: Prisma.ContactWhereInput = text
    ? {
        OR: [
          { email: { contains: text, mode: "insensitive" } },
          { name: { contains: text, mode: "insensitive" } },
          { whatsappUsername: { contains: text.replace(/^@/, ""), mode: "insensitive" } },
          { whatsappUserId: text },
          ...(digits.length >= 3 ? [{ phone: { contains: digits } }] : []),
        ],
      }
    : {};
  const { items, next } = await listPage(
    query,
    null,
    (id) => database.prisma.contact.findFirst({ where: { id, workspaceId }, select: { id: true, createdAt: true } }),
    (where, take) =>
      database.prisma.contact.findMany({ where: { workspaceId, AND: [match, where] }, orderBy: PAGE_ORDER, take, select: CONTACT_SELECT }),
  );
  return { items: items.map(contactView), next };
}

/** A contact's event history, newest first. */
export async function contactHistory(database: Database, workspaceId: string, contactId: string) {
  const rows = await database.prisma.event.findMany({
    where: { workspaceId, contactId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: 200,
    select: { id: true, name: true, mode: true, data: true, createdAt: true },
  });
  return rows.map((e) => ({ id: e.id, event: e.name, mode: e.mode, data: e.data, timestamp: e.createdAt.toISOString() }));
}
