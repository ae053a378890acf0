import type { Database } from "../db/client.ts";
import { invalid } from "../lib/errors.ts";
import { normalizeEmail } from "../lib/email.ts";
import { normalizePhone } from "../lib/phone.ts";
import { checkWhatsAppUserId } from "../lib/whatsapp-user-id.ts";
import { checkFieldValue } from "../fields/field-values.ts";
import { OPT_OUT_COLUMNS, type OptOutColumn, type UpsertContactRequest } from "./contact-schemas.ts";
import { defaultCountry } from "./get-contact.ts";
import type { CallerInWorkspace } from "../lib/caller.ts";

/** The tag set a patch leaves on a contact that has `current`. */
export function patchedTags(current: string[], patch: Pick<ContactPatch, "tags" | "addTags" | "removeTags">): string[] {
  if (patch.tags) return patch.tags;
  const removed = new Set(patch.removeTags ?? []);
  return [...new Set([...current, ...(patch.addTags ?? [])])].filter((t) => !removed.has(t)).sort();
}

/** A contact change with every value normalized and checked (D1, D2, D14), before any write. */
export type ContactPatch = {
  phone?: string;
  email?: string;
  /** D88: matched before the phone. */
  whatsappUserId?: string;
  /** null clears it. */
  whatsappUsername?: string | null;
  name?: string | null;
  tags?: string[];
  /** Tag ids added and taken off (D78); never with `tags`. */
  addTags?: string[];
  removeTags?: string[];
  /** null removes the key. */
  fields?: Record<string, string | number | boolean | null>;
  /** The opt-outs given (D38), by column. */
  optOuts?: Partial<Record<OptOutColumn, boolean>>;
  /** null clears it (D65). */
  timeZone?: string | null;
};

export async function checkContactPatch(
  database: Database,
  ref: Pick<CallerInWorkspace, "workspaceId" | "defaultCountry">,
  input: UpsertContactRequest,
): Promise<ContactPatch> {
  const workspaceId = ref.workspaceId;
  const patch: ContactPatch = {};
  if (input.phone !== undefined) patch.phone = normalizePhone(input.phone, await defaultCountry(database, ref), "phone");
  if (input.email !== undefined) patch.email = normalizeEmail(input.email, "email");
  if (input.whatsapp_user_id !== undefined) patch.whatsappUserId = checkWhatsAppUserId(input.whatsapp_user_id, "whatsapp_user_id");
  if (input.whatsapp_username !== undefined) patch.whatsappUsername = input.whatsapp_username || null;
  if (input.name !== undefined) patch.name = input.name === null || input.name === "" ? null : input.name;
  if (input.tags !== undefined && (input.add_tags !== undefined || input.remove_tags !== undefined)) {
    throw invalid("parameter_invalid", "Give `tags` (the whole set) or `add_tags`/`remove_tags` (changes to it), not both.", "tags");
  }
  if (input.tags !== undefined) patch.tags = await checkTags(database, workspaceId, input.tags, "tags");
  if (input.add_tags !== undefined) patch.addTags = await checkTags(database, workspaceId, input.add_tags, "add_tags");
  if (input.remove_tags !== undefined) patch.removeTags = await checkTags(database, workspaceId, input.remove_tags, "remove_tags");
  if (input.fields !== undefined) patch.fields = await checkFields(database, workspaceId, input.fields);
  for (const column of OPT_OUT_COLUMNS) {
    const value = input[column];
    if (value !== undefined) patch.optOuts = { ...patch.optOuts, [column]: value };
  }
  if (input.time_zone !== undefined) patch.timeZone = input.time_zone;
  return patch;
}

/** D14: every id must be a tag of the workspace; the first unknown one is `<param>.<index>`. */
async function checkTags(database: Database, workspaceId: string, ids: string[], param: string): Promise<string[]> {
  const found = await database.prisma.tag.findMany({ where: { workspaceId, id: { in: ids } }, select: { id: true } });
  const known = new Set(found.map((t) => t.id));
  const unknown = ids.findIndex((id) => !known.has(id));
  if (unknown >= 0) throw invalid("unknown_tag", `${param}.${unknown}: no tag ${ids[unknown]} in this workspace.`, `${param}.${unknown}`);
  return [...new Set(ids)].sort();
}

/** D14: every key must be a custom field of the workspace, each value of its type. */
async function checkFields(
  database: Database,
  workspaceId: string,
  values: Record<string, unknown>,
): Promise<Record<string, string | number | boolean | null>> {
  const keys = Object.keys(values);
  const defs = await database.prisma.customField.findMany({ where: { workspaceId, key: { in: keys } }, select: { key: true, type: true } });
  const types = new Map(defs.map((d) => [d.key, d.type]));
  const out: Record<string, string | number | boolean | null> = {};
  for (const key of keys) {
    const type = types.get(key);
    if (!type) throw invalid("unknown_field", `fields.${key}: no custom field with this key in this workspace.`, `fields.${key}`);
    const value = values[key];
    out[key] = value === null ? null : checkFieldValue(key, type, value);
  }
  return out;
}
