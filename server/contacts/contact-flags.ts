import type { Handle } from "../db/client.ts";
import { insertEvent } from "../events/record-event.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import type { Mode } from "../keys/scopes.ts";
import type { OptOutColumn } from "./contact-schemas.ts";
import { touchContacts } from "./get-contact.ts";

/** The contact's flags a provider sets (D90's marketing opt-out, a channel's opt-out such as D96's): column names, never input. */
export type ContactFlag = "whatsapp_marketing_opt_out" | OptOutColumn;

/**
 * Sets one of a contact's provider-set flags, recorded as any change of a contact is (D14): its
 * updated_at, and `contato.atualizado` with the contact as it now is, once (setting it again
 * changes nothing). Whether it changed.
 */
export async function setContactFlag(
  sql: Handle,
  ref: { workspaceId: string; id: string },
  flag: ContactFlag,
  mode: Mode,
  value = true,
): Promise<boolean> {
  const changed = await sql(
    `UPDATE contacts SET ${flag} = $3 WHERE workspace_id = $1 AND id = $2 AND ${flag} IS DISTINCT FROM $3 RETURNING id`,
    [ref.workspaceId, ref.id, value],
  );
  if (changed.length === 0) return false;
  const contact = (await touchContacts(sql, [ref], new Date())).get(ref.id)!;
  await insertEvent(sql, {
    workspaceId: ref.workspaceId,
    mode,
    name: "contato.atualizado",
    data: contact as unknown as Prisma.InputJsonObject,
    contactId: ref.id,
  });
  return true;
}
