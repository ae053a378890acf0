import type { Database, Handle } from "../db/client.ts";
import type { Columns, Nullable } from "../db/rows.ts";
import { invalid, notFound } from "../lib/errors.ts";
import { groupCommitEach } from "../lib/group-commit.ts";
import { perWorkspace, rowsPerWorkspace } from "../lib/per-workspace.ts";
import { normalizeEmail } from "../lib/email.ts";
import { normalizePhone } from "../lib/phone.ts";
import { checkWhatsAppUserId } from "../lib/whatsapp-user-id.ts";
import { OPT_OUT_COLUMNS, optOuts, type Contact, type OptOutColumn } from "./contact-schemas.ts";
import type { CallerInWorkspace } from "../lib/caller.ts";

type Row = Columns<
  "contacts",
  | "id"
  | "phone"
  | "email"
  | "whatsapp_user_id"
  | "whatsapp_username"
  | "name"
  | OptOutColumn
  | "whatsapp_marketing_opt_out"
  | "whatsapp_window_expires_at"
  | "time_zone"
  | "created_at"
  | "updated_at"
> & { fields: Contact["fields"]; tags: string[] };

// One statement, straight to the driver: the contact and its tag ids. Every table it reads
// names the workspace, `$1` (D87: Citus routes a statement to one worker only so). Sending a message looks
// its recipient up this way on every call (docs/architecture.md, hot paths).
/**
 * How a contact is matched, `$1` the workspace and `$2` the value (`c` the contacts table).
 * D59: an e-mail matches case-insensitively through `email_key`; an exact match comes first,
 * for the legacy contacts whose addresses differ only by case (contact_email_duplicates),
 * then the contact holding the address.
 */
export const CONTACT_MATCH = {
  id: "c.id = $2",
  phone: "c.phone = $2",
  whatsapp_user_id: "c.whatsapp_user_id = $2",
  email: "(c.email = $2 OR c.email_key = lower($2)) ORDER BY c.email = $2 DESC",
} as const;
const COLUMNS = `c.id, c.phone, c.email, c.whatsapp_user_id, c.whatsapp_username, c.name, c.fields, ${OPT_OUT_COLUMNS.map((column) => `c.${column}`).join(", ")}, c.whatsapp_marketing_opt_out, c.whatsapp_window_expires_at, c.time_zone, c.created_at, c.updated_at,
  coalesce((SELECT array_agg(t.tag_id ORDER BY t.tag_id) FROM contact_tags t WHERE t.workspace_id = $1 AND t.contact_id = c.id), '{}') AS tags`;
const FIND = (match: string) => `SELECT ${COLUMNS} FROM contacts c WHERE c.workspace_id = $1 AND ${match} LIMIT 1`;
const QUERIES = {
  id: FIND(CONTACT_MATCH.id),
  phone: FIND(CONTACT_MATCH.phone),
  whatsapp_user_id: FIND(CONTACT_MATCH.whatsapp_user_id),
  email: FIND(CONTACT_MATCH.email),
};

type By = { id: string } | { phone: string } | { whatsapp_user_id: string } | { email: string };

/** The workspace's contact with this id, phone or e-mail, or null; through `sql`, so inside a caller's transaction too. */
export async function findContactBy(sql: Handle, workspaceId: string, by: By): Promise<Contact | null> {
  const [column, value] = Object.entries(by)[0] as [keyof typeof QUERIES, string];
  const [row] = await sql<Row>(QUERIES[column], [workspaceId, value]);
  return row ? contactOf(row) : null;
}

// Contacts of one workspace by id, `$1` the workspace and `$2` the ids: each statement names
// one workspace (D87), a batch over several runs one per workspace (perWorkspace).
const PAIRS = `c.workspace_id = $1 AND c.id = ANY($2::text[])`;
const LOCK_MANY = `SELECT c.id FROM contacts c WHERE ${PAIRS} ORDER BY c.id FOR NO KEY UPDATE`;
const FIND_MANY = `SELECT ${COLUMNS} FROM contacts c WHERE ${PAIRS}`;
const TOUCH_MANY = `UPDATE contacts c SET updated_at = $3 WHERE ${PAIRS} RETURNING ${COLUMNS}`;

type Ref = { workspaceId: string; id: string };

/**
 * Locks the contacts with these ids in their workspaces, in (workspace, id) order (two callers never wait
 * on each other in a circle), for a transaction that changes them, then reads them, by id
 * (those that no longer exist left out). Two statements: a statement that waited for a lock
 * would still read the contacts' tags as they were before the wait.
 */
export async function lockContacts(sql: Handle, refs: readonly Ref[]): Promise<Map<string, Contact>> {
  const rows = await lockThenRead<Row>(sql, refs, FIND_MANY);
  return new Map(rows.map((r) => [r.id, contactOf(r)]));
}

// D72: `lockContacts` for a batch of journey steps, each contact read with the reason the
// live suppression list gives its e-mail, in the same statement: a live e-mail step checks it
// without a round trip of its own.
const FIND_MANY_SUPPRESSED = `SELECT ${COLUMNS},
  (SELECT s.reason::text FROM suppressions s WHERE s.workspace_id = $1 AND s.mode = 'live' AND s.email_key = lower(c.email)) AS suppressed
  FROM contacts c WHERE ${PAIRS}`;

/** `lockContacts`, each contact with its live suppression's reason (null when its address is not suppressed). */
export async function lockRecipients(
  sql: Handle,
  refs: readonly Ref[],
): Promise<Map<string, { contact: Contact; suppressed: string | null }>> {
  const rows = await lockThenRead<Row & { suppressed: string | null }>(sql, refs, FIND_MANY_SUPPRESSED);
  return new Map(rows.map((r) => [r.id, { contact: contactOf(r), suppressed: r.suppressed }]));
}

/** Locks the contacts (LOCK_MANY), then reads them with `find`, a statement over the same pairs. */
async function lockThenRead<R>(sql: Handle, refs: readonly Ref[], find: string): Promise<R[]> {
  return rowsPerWorkspace(
    refs,
    (r) => r.workspaceId,
    async (ws, group) => {
      const params = [ws, group.map((r) => r.id)];
      await sql(LOCK_MANY, params);
      return sql<R>(find, params);
    },
  );
}

/** `statement` over `$1` a workspace and `$2` its refs' ids (`$3` on: `extra`), once per workspace of `refs`. */
const eachWorkspace = <R>(sql: Handle, refs: readonly Ref[], statement: string, extra: unknown[] = []) =>
  rowsPerWorkspace(
    refs,
    (r) => r.workspaceId,
    (ws, group) => sql<R>(statement, [ws, group.map((r) => r.id), ...extra]),
  );

/** The contacts as they are, by id, without locking them (a preview reads them, D70). */
export async function readContacts(sql: Handle, refs: readonly Ref[]): Promise<Map<string, Contact>> {
  const rows = await eachWorkspace<Row>(sql, refs, FIND_MANY);
  return new Map(rows.map((r) => [r.id, contactOf(r)]));
}

/**
 * Marks the contacts changed at `at` and returns them as they now are (their rows as updated,
 * their tags as this transaction sees them), by id, in one statement.
 */
export async function touchContacts(sql: Handle, refs: readonly Ref[], at: Date): Promise<Map<string, Contact>> {
  const rows = await eachWorkspace<Row>(sql, refs, TOUCH_MANY, [at]);
  return new Map(rows.map((r) => [r.id, contactOf(r)]));
}

// The same look-ups for many values of one workspace (`$1`) in one statement, each answered by
// its ordinality `i` (1-based); a batch over several workspaces runs one per workspace (D87).
const MANY = Object.fromEntries(
  Object.entries(CONTACT_MATCH).map(([column, match]) => [
    column,
    `SELECT k.i, c.* FROM unnest($2::text[]) WITH ORDINALITY AS k(v, i)
     CROSS JOIN LATERAL (${FIND(match).replaceAll("$2", "k.v")}) c`,
  ]),
) as Record<keyof typeof QUERIES, string>;

type Key = { workspaceId: string; value: string };

/** `statement` for a batch of keys, one per workspace (`$1`, its values `$2`), each key's row by its ordinality or undefined. */
const lookUpEach = <R extends { i: string }>(database: Database, keys: readonly Key[], statement: string) =>
  perWorkspace(
    keys,
    (k) => k.workspaceId,
    async (ws, group) => {
      const rows = await database.query<R>(statement, [ws, group.map((k) => k.value)]);
      const found = new Map(rows.map((r) => [Number(r.i), r]));
      return group.map((_, i) => found.get(i + 1));
    },
  );

const lookUps = Object.fromEntries(
  Object.keys(QUERIES).map((column) => [
    column,
    groupCommitEach(async (database: Database, keys: readonly Key[]) =>
      (await lookUpEach<Row & { i: string }>(database, keys, MANY[column as keyof typeof QUERIES])).map((r) => (r ? contactOf(r) : null)),
    ),
  ]),
) as Record<keyof typeof QUERIES, (database: Database, key: { workspaceId: string; value: string }) => Promise<Contact | null>>;

/**
 * `findContactBy` outside a transaction, for the requests that look their contact up first
 * (a send's recipient, GET /contacts): the look-ups of one kind that arrive while one is in
 * flight share the next statement (`groupCommit`).
 */
export function lookUpContact(database: Database, workspaceId: string, by: By): Promise<Contact | null> {
  const [column, value] = Object.entries(by)[0] as [keyof typeof QUERIES, string];
  return lookUps[column](database, { workspaceId, value });
}

// D72: the same look-ups with the reason the live suppression list gives the address (the
// contact's e-mail, or the address looked up when no contact has it), read in the same
// statement, so a live e-mail send checks it without another round trip.
const suppressionOf = (address: string) =>
  `(SELECT s.reason::text FROM suppressions s WHERE s.workspace_id = $1 AND s.mode = 'live' AND s.email_key = lower(${address}))`;
const MANY_SUPPRESSED = Object.fromEntries(
  Object.entries(CONTACT_MATCH).map(([column, match]) => [
    column,
    `SELECT k.i, c.*, ${suppressionOf(column === "email" ? "k.v" : "c.email")} AS suppressed
     FROM unnest($2::text[]) WITH ORDINALITY AS k(v, i)
     LEFT JOIN LATERAL (${FIND(match).replaceAll("$2", "k.v")}) c ON true`,
  ]),
) as Record<keyof typeof QUERIES, string>;

export type RecipientRead = { contact: Contact | null; suppressed: string | null };

const recipientLookUps = Object.fromEntries(
  Object.keys(QUERIES).map((column) => [
    column,
    groupCommitEach(async (database: Database, keys: readonly Key[]) =>
      (
        await lookUpEach<Nullable<Row> & { i: string; suppressed: string | null }>(
          database,
          keys,
          MANY_SUPPRESSED[column as keyof typeof QUERIES],
        )
      ).map((r) => ({ contact: r?.id ? contactOf(r as Row) : null, suppressed: r?.suppressed ?? null })),
    ),
  ]),
) as Record<keyof typeof QUERIES, (database: Database, key: { workspaceId: string; value: string }) => Promise<RecipientRead>>;

/**
 * `lookUpContact` for a live e-mail send: the contact, and whether its address (or the
 * address asked for) is on the workspace's live suppression list, with its reason.
 */
export function lookUpRecipient(database: Database, workspaceId: string, by: By): Promise<RecipientRead> {
  const [column, value] = Object.entries(by)[0] as [keyof typeof QUERIES, string];
  return recipientLookUps[column](database, { workspaceId, value });
}

function contactOf(row: Row): Contact {
  return {
    id: row.id,
    phone: row.phone,
    email: row.email,
    whatsapp_user_id: row.whatsapp_user_id,
    whatsapp_username: row.whatsapp_username,
    name: row.name,
    tags: row.tags,
    fields: row.fields ?? {},
    ...optOuts((column) => row[column]),
    whatsapp_marketing_opt_out: row.whatsapp_marketing_opt_out,
    whatsapp_window_expires_at: row.whatsapp_window_expires_at ? new Date(row.whatsapp_window_expires_at).toISOString() : null,
    time_zone: row.time_zone,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

/** Another workspace's contact is a 404 like an unknown one (STYLE.md "Errors"). */
export async function getContactOrThrow(database: Database, workspaceId: string, id: string, param = "id"): Promise<Contact> {
  const contact = await lookUpContact(database, workspaceId, { id });
  if (!contact) throw notFound("contact", param);
  return contact;
}

/** GET /contacts: by WhatsApp user id (D88), else by phone (also when both are given), else by e-mail (D13). */
export async function findContact(
  database: Database,
  actor: Pick<CallerInWorkspace, "workspaceId" | "defaultCountry">,
  query: { phone?: string; email?: string; whatsapp_user_id?: string },
): Promise<Contact> {
  const workspaceId = actor.workspaceId;
  const [param, where] =
    query.whatsapp_user_id !== undefined
      ? ["whatsapp_user_id", { whatsapp_user_id: checkWhatsAppUserId(query.whatsapp_user_id, "whatsapp_user_id") }]
      : query.phone !== undefined
        ? ["phone", { phone: normalizePhone(query.phone, await defaultCountry(database, actor), "phone") }]
        : query.email !== undefined
          ? ["email", { email: normalizeEmail(query.email, "email") }]
          : [];
  if (!where) throw invalid("parameter_missing", "Give `phone`, `email` or `whatsapp_user_id` to find a contact.", "phone");
  const contact = await lookUpContact(database, workspaceId, where);
  if (!contact) throw notFound("contact", param);
  return contact;
}

export async function defaultCountry(
  database: Database,
  ref: Pick<CallerInWorkspace, "workspaceId" | "defaultCountry">,
): Promise<string | null> {
  if (ref.defaultCountry !== undefined) return ref.defaultCountry;
  const ws = await database.prisma.workspace.findUnique({ where: { id: ref.workspaceId }, select: { defaultCountry: true } });
  return ws?.defaultCountry ?? null;
}
