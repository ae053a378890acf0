import type { Contact } from "../contacts/contact-schemas.ts";
import { defaultCountry, lookUpContact, lookUpRecipient } from "../contacts/get-contact.ts";
import type { Database } from "../db/client.ts";
import { normalizeEmail } from "../lib/email.ts";
import { notFound } from "../lib/errors.ts";
import { normalizePhone } from "../lib/phone.ts";
import { checkWhatsAppUserId } from "../lib/whatsapp-user-id.ts";
import type { CallerInWorkspace } from "../lib/caller.ts";

export type Recipient = { phone?: string; email?: string; whatsapp_user_id?: string; contact_id?: string; name?: string };

/** The address a new contact is created with (D15, D88). */
export type RecipientDraft = { phone?: string; email?: string; whatsapp_user_id?: string; name?: string };

/**
 * D15: `to.contact_id` must exist (404); `to.phone` or `to.email` finds the contact, or
 * describes the one to create (with `name`). Nothing is written here: the caller creates the
 * contact only once every check has passed.
 */
export async function resolveRecipient(
  database: Database,
  ref: Pick<CallerInWorkspace, "workspaceId" | "defaultCountry">,
  to: Recipient,
  opts: { suppression?: boolean } = {},
): Promise<
  ({ contact: Contact; exists: true } | { contact: null; exists: false; draft: RecipientDraft }) & {
    suppressed: string | null;
  }
> {
  // D72: a live e-mail send reads the suppression list in the same statement as the contact.
  const lookUp = async (by: Parameters<typeof lookUpContact>[2]) =>
    opts.suppression
      ? lookUpRecipient(database, ref.workspaceId, by)
      : { contact: await lookUpContact(database, ref.workspaceId, by), suppressed: null };
  if (to.contact_id !== undefined) {
    const { contact, suppressed } = await lookUp({ id: to.contact_id });
    if (!contact) throw notFound("contact", "to.contact_id");
    return { contact, exists: true, suppressed };
  }
  const by: RecipientDraft =
    to.phone !== undefined
      ? { phone: normalizePhone(to.phone, await defaultCountry(database, ref), "to.phone") }
      : to.whatsapp_user_id !== undefined
        ? { whatsapp_user_id: checkWhatsAppUserId(to.whatsapp_user_id, "to.whatsapp_user_id") }
        : { email: normalizeEmail(to.email!, "to.email") };
  const { contact, suppressed } = await lookUp(by as Parameters<typeof lookUpContact>[2]);
  if (contact) return { contact, exists: true, suppressed };
  return { contact: null, exists: false, draft: { ...by, ...(to.name ? { name: to.name } : {}) }, suppressed };
}
