import type { Database } from "../db/client.ts";
import { Prisma } from "../generated/prisma/client.ts";
import { recordEvent } from "../events/record-event.ts";
import type { Mode } from "../keys/scopes.ts";
import { canonicalJson } from "../lib/canonical-json.ts";
import { conflict, invalid, isUniqueViolation, notFound } from "../lib/errors.ts";
import { newId } from "../lib/ids.ts";
import { CONTACT_SELECT, contactView, type Contact, type UpsertContactRequest } from "./contact-schemas.ts";
import { checkContactPatch, type ContactPatch } from "./contact-patch.ts";

type Actor = { workspaceId: string; mode: Mode };
type Tx = Prisma.TransactionClient;
type Locked = { id: string; phone: string | null; email: string | null };

/**
 * POST /contacts (spec "Create or update contact", D14): matched by phone, else by e-mail;
 * omitted fields are kept. Everything is checked before the transaction, and the transaction
 * writes the contact, its tags and its event together, so a refused request writes nothing.
 * Two concurrent upserts of one new contact: one inserts, the other finds it (ON CONFLICT)
 * and updates it; both answer with the same id.
 */
export async function upsertContact(database: Database, actor: Actor, input: UpsertContactRequest): Promise<Contact> {
  if (input.phone === undefined && input.email === undefined) {
    throw invalid("parameter_missing", "Give at least `phone` or `email`.", "phone");
  }
  const patch = await checkContactPatch(database, actor.workspaceId, input);
  const match = patch.phone !== undefined ? { phone: patch.phone } : { email: patch.email! };
  return withConflictMapping(() =>
    database.prisma.$transaction(async (tx) => {
      const found = (await lockContact(tx, actor.workspaceId, match)) ?? (await insertContact(tx, actor, patch, match));
      if (found === "created") return readContact(tx, actor.workspaceId, match);
      return applyPatch(tx, actor, found, patch);
    }),
  );
}

/** Dashboard edits of one contact by id, through the same rules. */
export async function updateContact(database: Database, actor: Actor, id: string, input: UpsertContactRequest): Promise<Contact> {
  const patch = await checkContactPatch(database, actor.workspaceId, input);
  return withConflictMapping(() =>
    database.prisma.$transaction(async (tx) => {
      const found = await lockContact(tx, actor.workspaceId, { id });
      if (!found) throw notFound("contact", "id");
      return applyPatch(tx, actor, found, patch);
    }),
  );
}

async function lockContact(
  tx: Tx,
  workspaceId: string,
  by: { phone: string } | { email: string } | { id: string },
): Promise<Locked | null> {
  const [column, value] = Object.entries(by)[0] as [string, string];
  const rows = await tx.$queryRaw<Locked[]>`
    SELECT id, phone, email FROM contacts
    WHERE workspace_id = ${workspaceId} AND ${Prisma.raw(`"${column}"`)} = ${value}
    FOR UPDATE`;
  return rows[0] ?? null;
}

/** Inserts the new contact; on a concurrent insert of the same phone or e-mail, locks that one. */
async function insertContact(
  tx: Tx,
  actor: Actor,
  patch: ContactPatch,
  match: { phone: string } | { email: string },
): Promise<Locked | "created"> {
  const id = newId("contact");
  const fields = Object.fromEntries(Object.entries(patch.fields ?? {}).filter(([, v]) => v !== null));
  const inserted = await tx.$queryRaw<{ id: string }[]>`
    INSERT INTO contacts (id, workspace_id, phone, email, name, fields, opt_out_whatsapp, opt_out_email)
    VALUES (${id}, ${actor.workspaceId}, ${patch.phone ?? null}, ${patch.email ?? null}, ${patch.name ?? null},
            ${JSON.stringify(fields)}::jsonb, ${patch.optOutWhatsapp ?? false}, ${patch.optOutEmail ?? false})
    ON CONFLICT DO NOTHING
    RETURNING id`;
  if (inserted.length === 0) {
    const other = await lockContact(tx, actor.workspaceId, match);
    // The conflict was on the other identity: the e-mail belongs to another contact (D14).
    if (!other) throw emailTaken();
    return other;
  }
  if (patch.tags?.length) await tx.contactTag.createMany({ data: patch.tags.map((tagId) => ({ contactId: id, tagId })) });
  const contact = await readContact(tx, actor.workspaceId, { id });
  await recordEvent(tx, { workspaceId: actor.workspaceId, mode: actor.mode, name: "contato.criado", data: contact, contactId: id });
  return "created";
}

async function applyPatch(tx: Tx, actor: Actor, locked: Locked, patch: ContactPatch): Promise<Contact> {
  const before = await readContact(tx, actor.workspaceId, { id: locked.id });
  if (
    patch.phone !== undefined &&
    patch.phone !== locked.phone &&
    (await taken(tx, actor.workspaceId, locked.id, { phone: patch.phone }))
  ) {
    throw conflict("phone_taken", "Another contact already has this phone number.", "phone");
  }
  if (
    patch.email !== undefined &&
    patch.email !== locked.email &&
    (await taken(tx, actor.workspaceId, locked.id, { email: patch.email }))
  ) {
    throw emailTaken();
  }
  const fields: Record<string, unknown> = { ...before.fields };
  for (const [key, value] of Object.entries(patch.fields ?? {})) {
    if (value === null) delete fields[key];
    else fields[key] = value;
  }
  const next = {
    phone: patch.phone ?? before.phone,
    email: patch.email ?? before.email,
    name: patch.name !== undefined ? patch.name : before.name,
    fields,
    optOutWhatsapp: patch.optOutWhatsapp ?? before.opt_out_whatsapp,
    optOutEmail: patch.optOutEmail ?? before.opt_out_email,
  };
  const tags = patch.tags ?? before.tags;
  const changed =
    canonicalJson([next.phone, next.email, next.name, next.fields, next.optOutWhatsapp, next.optOutEmail, [...tags].sort()]) !==
    canonicalJson([
      before.phone,
      before.email,
      before.name,
      before.fields,
      before.opt_out_whatsapp,
      before.opt_out_email,
      [...before.tags].sort(),
    ]);
  if (!changed) return before;

  await tx.contact.update({
    where: { id: locked.id },
    data: { ...next, fields: next.fields as Prisma.InputJsonObject, updatedAt: new Date() },
  });
  if (patch.tags) {
    await tx.contactTag.deleteMany({ where: { contactId: locked.id } });
    if (tags.length) await tx.contactTag.createMany({ data: tags.map((tagId) => ({ contactId: locked.id, tagId })) });
  }
  const after = await readContact(tx, actor.workspaceId, { id: locked.id });
  await recordEvent(tx, {
    workspaceId: actor.workspaceId,
    mode: actor.mode,
    name: "contato.atualizado",
    data: after,
    contactId: locked.id,
  });
  return after;
}

async function taken(tx: Tx, workspaceId: string, self: string, by: { phone: string } | { email: string }): Promise<boolean> {
  return (await tx.contact.count({ where: { workspaceId, ...by, id: { not: self } } })) > 0;
}

async function readContact(tx: Tx, workspaceId: string, by: { id: string } | { phone: string } | { email: string }): Promise<Contact> {
  const row = await tx.contact.findFirst({ where: { workspaceId, ...by }, select: CONTACT_SELECT });
  if (!row) throw notFound("contact");
  return contactView(row);
}

const emailTaken = () => conflict("email_taken", "Another contact already has this e-mail address.", "email");

/** A unique violation that slipped past the checks (a concurrent change) is the same 409. */
async function withConflictMapping<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    if (/email/.test(JSON.stringify((err as { meta?: unknown }).meta ?? "") + String((err as Error).message))) throw emailTaken();
    throw conflict("phone_taken", "Another contact already has this phone number.", "phone");
  }
}
