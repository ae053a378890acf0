import type { Database } from "../db/client.ts";
import { invalid, notFound } from "../lib/errors.ts";
import { normalizeEmail } from "../lib/email.ts";
import { normalizePhone } from "../lib/phone.ts";
import { CONTACT_SELECT, contactView, type Contact } from "./contact-schemas.ts";

/** Another workspace's contact is a 404 like an unknown one (STYLE.md "Errors"). */
export async function getContactOrThrow(database: Database, workspaceId: string, id: string, param = "id"): Promise<Contact> {
  const row = await database.prisma.contact.findFirst({ where: { id, workspaceId }, select: CONTACT_SELECT });
  if (!row) throw notFound("contact", param);
  return contactView(row);
}

/** GET /contacts: by phone when given (also when both are given), else by e-mail (D13). */
export async function findContact(database: Database, actor: WorkspaceRef, query: { phone?: string; email?: string }): Promise<Contact> {
  const workspaceId = actor.workspaceId;
  if (query.phone === undefined && query.email === undefined) {
    throw invalid("parameter_missing", "Give `phone` or `email` to find a contact.", "phone");
  }
  const where =
    query.phone !== undefined
      ? { phone: normalizePhone(query.phone, await defaultCountry(database, actor), "phone") }
      : { email: normalizeEmail(query.email!, "email") };
  const row = await database.prisma.contact.findFirst({ where: { workspaceId, ...where }, select: CONTACT_SELECT });
  if (!row) throw notFound("contact", query.phone !== undefined ? "phone" : "email");
  return contactView(row);
}

/** A workspace, and its default phone country when the caller already read it (key check). */
export type WorkspaceRef = { workspaceId: string; defaultCountry?: string | null };

export async function defaultCountry(database: Database, ref: WorkspaceRef): Promise<string | null> {
  if (ref.defaultCountry !== undefined) return ref.defaultCountry;
  const ws = await database.prisma.workspace.findUnique({ where: { id: ref.workspaceId }, select: { defaultCountry: true } });
  return ws?.defaultCountry ?? null;
}
