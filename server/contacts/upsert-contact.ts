import { causeParams } from "../observability/request-context.ts";
import { isConnectionError, type Database } from "../db/client.ts";
import { jsonRows } from "../db/json-rows.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { insertEvent, insertEventsFrom } from "../events/record-event.ts";
import { prismaHandle } from "../db/prisma-handle.ts";
import { canonicalJson } from "../lib/canonical-json.ts";
import { conflict, invalid, isUniqueViolation, notFound } from "../lib/errors.ts";
import { groupCommitEach } from "../lib/group-commit.ts";
import { newId } from "../lib/ids.ts";
import { CONTACT_MATCH } from "./get-contact.ts";
import {
  CONTACT_SELECT,
  OPT_OUT_COLUMNS,
  contactView,
  optOuts,
  prismaOptOuts,
  type Contact,
  type UpsertContactRequest,
} from "./contact-schemas.ts";
import { checkContactPatch, patchedTags, type ContactPatch } from "./contact-patch.ts";
import { wakePipeline } from "../outbox/wake.ts";
import { Handoff } from "../outbox/handoff.ts";
import type { StoredJob } from "../outbox/jobs.ts";
import type { CallerInWorkspace } from "../lib/caller.ts";

type Tx = Prisma.TransactionClient;
type By = { phone: string } | { email: string } | { whatsapp_user_id: string } | { id: string };

/**
 * POST /contacts (spec "Create or update contact", D14): matched by phone, else by e-mail;
 * omitted fields are kept. Everything is checked before anything is written, and each path
 * writes the contact, its tags and its event atomically, so a refused request writes nothing.
 *
 * A new contact is created by one statement (contact, tags and `contato.criado` together). If
 * its phone or e-mail exists, that statement inserts nothing and the update path runs in a
 * transaction that locks the matched contact. Two concurrent upserts of one new contact: one
 * inserts, the other finds it and updates it; both answer with the same id.
 */
export async function upsertContact(
  database: Database,
  actor: Pick<CallerInWorkspace, "workspaceId" | "mode" | "defaultCountry">,
  input: UpsertContactRequest,
): Promise<Contact> {
  if (input.phone === undefined && input.email === undefined && input.whatsapp_user_id === undefined) {
    throw invalid("parameter_missing", "Give at least `phone`, `email` or `whatsapp_user_id`.", "phone");
  }
  const patch = await checkContactPatch(database, actor, input);
  const created = await createContact(database, actor, patch);
  // Its event may have webhook deliveries to make.
  wakePipeline();
  if (created) return created;
  // D88: the WhatsApp user id first, then the phone; the e-mail only when neither is given.
  const matches: By[] = [
    ...(patch.whatsappUserId !== undefined ? [{ whatsapp_user_id: patch.whatsappUserId }] : []),
    ...(patch.phone !== undefined ? [{ phone: patch.phone }] : []),
  ];
  if (matches.length === 0) matches.push({ email: patch.email! });
  const updated = await withConflictMapping(() =>
    database.prisma.$transaction(async (tx) => {
      let current: Contact | null = null;
      for (const match of matches) if (!current) current = await lockContact(tx, actor.workspaceId, match);
      // The phone is free but the e-mail belongs to another contact (D14).
      if (!current) throw emailTaken();
      return applyPatch(tx, actor, current, patch);
    }),
  );
  wakePipeline();
  return updated;
}

/** Dashboard edits of one contact by id, through the same rules. */
export async function updateContact(
  database: Database,
  actor: Pick<CallerInWorkspace, "workspaceId" | "mode" | "defaultCountry">,
  id: string,
  input: UpsertContactRequest,
): Promise<Contact> {
  const patch = await checkContactPatch(database, actor, input);
  const updated = await withConflictMapping(() =>
    database.prisma.$transaction(async (tx) => {
      const current = await lockContact(tx, actor.workspaceId, { id });
      if (!current) throw notFound("contact", "id");
      return applyPatch(tx, actor, current, patch);
    }),
  );
  wakePipeline();
  return updated;
}

// The CTEs of a statement that writes a batch of new contacts (rows of `newContactRow` in the
// JSON parameter `rows`, those `where` keeps: a condition on `x`) with their tags and
// `contato.criado` events (and the events' webhook deliveries). `ins` returns the `id`s
// written, and `logged_j` the deliveries' jobs, written claimed when `lease` names this
// process's worker (`Handoff.leaseOf`), which starts them once committed, with no claim
// statement of theirs. A contact whose phone or e-mail exists by then (an earlier one of the
// same batch included) is left out, with its tags and event. A part of the enrollment of a new
// contact too (`enroll-contact.ts`).
export function createContactsPart(rows: string, lease: { owner: string; ms: string }, where = "true"): string {
  return `x AS (
    SELECT * FROM ${jsonRows(
      rows,
      `id text, workspace_id text, phone text, email text, whatsapp_user_id text, whatsapp_username text, name text, fields jsonb, ${OPT_OUT_COLUMNS.map((column) => `${column} boolean`).join(", ")},
       time_zone text, at timestamptz, tags jsonb, event_id text, mode "KeyMode", data jsonb, request_id text, traceparent text`,
    )} AS x WHERE ${where}
  ), ins AS (
    INSERT INTO contacts (id, workspace_id, phone, email, email_key, whatsapp_user_id, whatsapp_username, name, fields, ${OPT_OUT_COLUMNS.join(", ")}, time_zone, created_at, updated_at)
    SELECT id, workspace_id, phone, email, lower(email), whatsapp_user_id, whatsapp_username, name, fields, ${OPT_OUT_COLUMNS.join(", ")}, time_zone, at, at FROM x
    ON CONFLICT DO NOTHING
    RETURNING id
  ), tagged AS (
    INSERT INTO contact_tags (workspace_id, contact_id, tag_id) SELECT x.workspace_id, x.id, t FROM x JOIN ins USING (id), jsonb_array_elements_text(x.tags) AS t
  ), ${insertEventsFrom(
    "logged",
    `SELECT x.event_id, x.workspace_id, 'contato.criado', x.mode, x.data, x.id, x.at, x.request_id, x.traceparent FROM x JOIN ins USING (id)`,
    lease,
  )}`;
}

/** The statement's column of the deliveries' jobs written claimed (`createContactsPart`), for `Handoff.hold` once parsed by `heldJobs`. */
export const HANDED_JOBS = `coalesce((SELECT json_agg(j) FROM logged_j j WHERE j.lease_owner IS NOT NULL), '[]'::json) AS handed`;

/** The jobs `HANDED_JOBS` returned, as `Handoff.hold` takes them. */
export const heldJobs = (handed: (StoredJob & Record<"run_at" | "created_at", string>)[]) =>
  handed.map((j) => ({ ...j, run_at: new Date(j.run_at), created_at: new Date(j.created_at) }));

const CREATE_CONTACTS = `
  WITH ${createContactsPart("$1", { owner: "$2::text", ms: "$3::double precision" })}
  SELECT ARRAY(SELECT id FROM ins) AS ids, ${HANDED_JOBS}`;

/** A new contact to write, by whom, when and for which request (D54). */
export type NewContact = {
  contact: Contact;
  actor: Pick<CallerInWorkspace, "workspaceId" | "mode">;
  at: Date;
  cause: [string | null, string | null];
};

/** The row `createContactsPart` writes for a new contact, with its event. */
export function newContactRow({ contact, actor, at, cause: [requestId, traceparent] }: NewContact) {
  return {
    id: contact.id,
    workspace_id: actor.workspaceId,
    phone: contact.phone,
    email: contact.email,
    whatsapp_user_id: contact.whatsapp_user_id,
    whatsapp_username: contact.whatsapp_username,
    name: contact.name,
    fields: contact.fields,
    ...optOuts((column) => contact[column]),
    time_zone: contact.time_zone,
    at,
    tags: contact.tags,
    event_id: newId("event"),
    mode: actor.mode,
    data: contact,
    request_id: requestId,
    traceparent,
  };
}

/**
 * Writes a new contact (`createContact`): concurrent creations of this process share one
 * statement (`groupCommit`), each created as if alone and in order of arrival. A batch that
 * fails as a whole (but for an unreachable database) is written again contact by contact.
 */
const insertContact = groupCommitEach(
  async (database: Database, batch: readonly NewContact[]): Promise<boolean[]> => {
    const rows = batch.map(newContactRow);
    const handoff = Handoff.take();
    const lease = handoff?.leaseOf("webhook.deliver") ?? null;
    const [row] = await database.query<{ ids: string[]; handed: (StoredJob & Record<"run_at" | "created_at", string>)[] }>(
      CREATE_CONTACTS,
      [JSON.stringify(rows), lease?.owner ?? null, lease?.ms ?? null],
    );
    handoff?.hold(heldJobs(row!.handed));
    handoff?.commit(() => true);
    const written = new Set(row!.ids);
    return batch.map((n) => written.has(n.contact.id));
  },
  { alone: (err) => !isConnectionError(err) },
);

/** A new contact as created from a checked patch (`checkContactPatch`), at `at`. */
export function newContact(patch: ContactPatch, at: Date): Contact {
  return {
    id: newId("contact"),
    phone: patch.phone ?? null,
    email: patch.email ?? null,
    whatsapp_user_id: patch.whatsappUserId ?? null,
    whatsapp_username: patch.whatsappUsername ?? null,
    name: patch.name ?? null,
    tags: patchedTags([], patch),
    fields: Object.fromEntries(Object.entries(patch.fields ?? {}).filter(([, v]) => v !== null)) as Contact["fields"],
    ...optOuts((column) => patch.optOuts?.[column] ?? false),
    whatsapp_marketing_opt_out: false,
    whatsapp_window_expires_at: null,
    time_zone: patch.timeZone ?? null,
    created_at: at.toISOString(),
    updated_at: at.toISOString(),
  };
}

/** Inserts the contact with its tags and event; null when its phone or e-mail exists. */
async function createContact(
  database: Database,
  actor: Pick<CallerInWorkspace, "workspaceId" | "mode">,
  patch: ContactPatch,
): Promise<Contact | null> {
  const at = new Date();
  const contact = newContact(patch, at);
  return (await insertContact(database, { contact, actor, at, cause: causeParams() })) ? contact : null;
}

async function lockContact(tx: Tx, workspaceId: string, by: By): Promise<Contact | null> {
  const [column, value] = Object.entries(by)[0] as [keyof By & string, string];
  const locked = await tx.$queryRawUnsafe<{ id: string }[]>(
    `SELECT c.id FROM contacts c WHERE c.workspace_id = $1 AND ${CONTACT_MATCH[column]} LIMIT 1 FOR UPDATE`,
    workspaceId,
    value,
  );
  if (!locked[0]) return null;
  const row = await tx.contact.findUnique({ where: { workspaceId_id: { workspaceId, id: locked[0].id } }, select: CONTACT_SELECT });
  return row ? contactView(row) : null;
}

async function applyPatch(
  tx: Tx,
  actor: Pick<CallerInWorkspace, "workspaceId" | "mode">,
  before: Contact,
  patch: ContactPatch,
): Promise<Contact> {
  if (
    patch.phone !== undefined &&
    patch.phone !== before.phone &&
    (await taken(tx, actor.workspaceId, before.id, { phone: patch.phone }))
  ) {
    throw conflict("phone_taken", "Another contact already has this phone number.", "phone");
  }
  if (
    patch.whatsappUserId !== undefined &&
    patch.whatsappUserId !== before.whatsapp_user_id &&
    (await taken(tx, actor.workspaceId, before.id, { whatsappUserId: patch.whatsappUserId }))
  ) {
    throw userIdTaken();
  }
  // D59: an address that differs only by case is the same address, kept as first given.
  const emailChanged = patch.email !== undefined && patch.email.toLowerCase() !== before.email?.toLowerCase();
  if (emailChanged && (await taken(tx, actor.workspaceId, before.id, { emailKey: patch.email!.toLowerCase() }))) {
    throw emailTaken();
  }
  const fields: Contact["fields"] = { ...before.fields };
  for (const [key, value] of Object.entries(patch.fields ?? {})) {
    if (value === null) delete fields[key];
    else fields[key] = value;
  }
  const after: Contact = {
    ...before,
    phone: patch.phone ?? before.phone,
    email: emailChanged ? patch.email! : before.email,
    whatsapp_user_id: patch.whatsappUserId ?? before.whatsapp_user_id,
    whatsapp_username: patch.whatsappUsername !== undefined ? patch.whatsappUsername : before.whatsapp_username,
    name: patch.name !== undefined ? patch.name : before.name,
    tags: patchedTags(before.tags, patch),
    fields,
    ...optOuts((column) => patch.optOuts?.[column] ?? before[column]),
    time_zone: patch.timeZone !== undefined ? patch.timeZone : before.time_zone,
  };
  const comparable = (c: Contact) => canonicalJson({ ...c, tags: [...c.tags].sort(), updated_at: null });
  if (comparable(after) === comparable(before)) return before;

  const now = new Date();
  after.updated_at = now.toISOString();
  await tx.contact.update({
    where: { workspaceId_id: { workspaceId: actor.workspaceId, id: before.id } },
    data: {
      phone: after.phone,
      email: after.email,
      ...(emailChanged ? { emailKey: after.email!.toLowerCase() } : {}),
      whatsappUserId: after.whatsapp_user_id,
      whatsappUsername: after.whatsapp_username,
      name: after.name,
      fields: after.fields,
      ...prismaOptOuts((column) => after[column]),
      timeZone: after.time_zone,
      updatedAt: now,
    },
  });
  if (comparable({ ...after, tags: before.tags }) !== comparable(after)) {
    await tx.contactTag.deleteMany({ where: { workspaceId: actor.workspaceId, contactId: before.id } });
    if (after.tags.length) {
      await tx.contactTag.createMany({
        data: after.tags.map((tagId) => ({ workspaceId: actor.workspaceId, contactId: before.id, tagId })),
      });
    }
  }
  await insertEvent(prismaHandle(tx), {
    workspaceId: actor.workspaceId,
    mode: actor.mode,
    name: "contato.atualizado",
    data: after,
    contactId: before.id,
    at: now,
  });
  return after;
}

async function taken(
  tx: Tx,
  workspaceId: string,
  self: string,
  by: { phone: string } | { emailKey: string } | { whatsappUserId: string },
): Promise<boolean> {
  return (await tx.contact.count({ where: { workspaceId, ...by, id: { not: self } } })) > 0;
}

const userIdTaken = () => conflict("whatsapp_user_id_taken", "Another contact already has this WhatsApp user id.", "whatsapp_user_id");

const emailTaken = () => conflict("email_taken", "Another contact already has this e-mail address.", "email");

/** A unique violation that slipped past the checks (a concurrent change) is the same 409. */
async function withConflictMapping<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    const what = JSON.stringify((err as { meta?: unknown }).meta ?? "") + String((err as Error).message);
    if (/whatsapp_user_id|whatsappUserId/.test(what)) throw userIdTaken();
    if (/email/.test(what)) throw emailTaken();
    throw conflict("phone_taken", "Another contact already has this phone number.", "phone");
  }
}
