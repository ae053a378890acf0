import type { Database } from "../db/client.ts";
import type { CallerInWorkspace } from "../lib/caller.ts";
import { normalizeEmail } from "../lib/email.ts";
import { normalizePhone } from "../lib/phone.ts";
import { checkWhatsAppUserId } from "../lib/whatsapp-user-id.ts";
import { listPage, PAGE_ORDER, type PageQuery } from "../lib/pagination.ts";
import { defaultCountry } from "./get-contact.ts";
import { CONTACT_SELECT, contactView } from "./contact-schemas.ts";

export type ContactFilters = {
  tag_id?: string;
  created_after?: Date;
  updated_after?: Date;
  phone?: string;
  email?: string;
  whatsapp_user_id?: string;
};

/**
 * GET /contacts as a list (D99): the workspace's contacts in D10's order and pages, filtered by
 * tag, creation or update time, phone (in any notation), e-mail (in any case, D59) or WhatsApp user id (D88).
 */
export async function listContacts(
  database: Database,
  actor: Pick<CallerInWorkspace, "workspaceId" | "defaultCountry">,
  query: PageQuery & ContactFilters,
  url: string,
) {
  const { workspaceId } = actor;
  const filter = {
    workspaceId,
    ...(query.tag_id !== undefined ? { tags: { some: { tagId: query.tag_id } } } : {}),
    ...(query.created_after ? { createdAt: { gt: query.created_after } } : {}),
    ...(query.updated_after ? { updatedAt: { gt: query.updated_after } } : {}),
    ...(query.phone !== undefined ? { phone: normalizePhone(query.phone, await defaultCountry(database, actor), "phone") } : {}),
    ...(query.whatsapp_user_id !== undefined ? { whatsappUserId: checkWhatsAppUserId(query.whatsapp_user_id, "whatsapp_user_id") } : {}),
    ...(query.email !== undefined ? { emailKey: normalizeEmail(query.email, "email").toLowerCase() } : {}),
  };
  const { items, link } = await listPage(
    query,
    url,
    (id) => database.prisma.contact.findFirst({ where: { id, workspaceId }, select: { id: true, createdAt: true } }),
    (where, take) =>
      database.prisma.contact.findMany({ where: { AND: [filter, where] }, orderBy: PAGE_ORDER, take, select: CONTACT_SELECT }),
  );
  return { items: items.map(contactView), link };
}
