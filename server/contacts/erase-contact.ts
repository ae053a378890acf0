import type { Database, Handle } from "../db/client.ts";
import type { Columns } from "../db/rows.ts";
import { insertEvent } from "../events/record-event.ts";
import type { CallerInWorkspace } from "../lib/caller.ts";
import { notFound } from "../lib/errors.ts";
import { applyReports } from "../messaging/apply-report.ts";
import { stopRuns } from "../flows/stop-runs.ts";
import { MODES } from "../keys/scopes.ts";
import { takeUnclaimedJob } from "../outbox/jobs.ts";
import { wakePipeline } from "../outbox/wake.ts";
import { giveBack } from "../usage/quota.ts";
import { findContactBy } from "./get-contact.ts";

export const ERASED = "[erased]";

/** The answer of DELETE /contacts/{id} (D78). */
export type ErasedContact = { id: string; erased: true };

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * What is personal about one contact: its addresses, name and field texts, and the texts of its
 * messages. A string of the rows that belong to the contact that holds one of these (any case)
 * becomes `[erased]`.
 */
class Secrets {
  private readonly values: string[];
  constructor(
    readonly contactId: string,
    values: Iterable<string>,
  ) {
    // Shorter than 3 characters would erase words that happen to contain them (a name "Al").
    this.values = [...new Set([...values].map((v) => v.trim().toLowerCase()).filter((v) => v.length >= 3))];
  }
  holds(text: string): boolean {
    const lower = text.toLowerCase();
    return this.values.some((v) => lower.includes(v));
  }
  text<T extends string | null>(text: T): T | string {
    return text !== null && this.holds(text) ? ERASED : text;
  }
  /**
   * A JSON value with the contact's data taken out: the Contact object (the data of `contato.*`
   * events, a run's `contact` variables) loses its addresses, name, fields and tags; a message's
   * or event's `text` is erased; any other string holding a secret is erased.
   */
  json(value: Json, key = ""): Json {
    if (typeof value === "string") return key === "text" ? ERASED : this.text(value);
    if (Array.isArray(value)) return value.map((v) => this.json(v));
    if (value === null || typeof value !== "object") return value;
    const out: { [key: string]: Json } = {};
    const isContact = value.id === this.contactId && ("phone" in value || "email" in value || "name" in value);
    for (const [k, v] of Object.entries(value)) {
      if (isContact && CONTACT_ADDRESSES.has(k)) out[k] = v === null ? null : ERASED;
      else if (isContact && k === "fields") out[k] = {};
      else if (isContact && k === "tags") out[k] = [];
      else out[k] = this.json(v, k);
    }
    return out;
  }
}

/** A Contact object's keys that name the person (D88: the WhatsApp user id and username too). */
const CONTACT_ADDRESSES = new Set(["phone", "email", "name", "whatsapp_user_id", "whatsapp_username"]);

/** Keys of a message's content that say how it was built, not what it says. */
const CONTENT_FORM = new Set(["media_type", "language", "parameter_format", "category"]);

/** A message's content: every text erased, its form kept. */
function eraseContent(value: Json, key = ""): Json {
  if (typeof value === "string") return CONTENT_FORM.has(key) ? value : ERASED;
  if (Array.isArray(value)) return value.map((v) => eraseContent(v, key));
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, eraseContent(v, k)]));
}

/** Every string leaf of a JSON value (the texts of a message's content). */
function texts(value: Json, out: string[] = []): string[] {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) value.forEach((v) => texts(v, out));
  else if (value !== null && typeof value === "object") Object.values(value).forEach((v) => texts(v, out));
  return out;
}

/**
 * DELETE /contacts/{id} (D78): erases a contact for privacy laws, in one transaction.
 * - Its active runs stop (`fluxo.parado`, reason `contact_erased`), in both modes.
 * - Its messages not yet handed to a provider are canceled (as POST /messages/{id}/cancel
 *   does, giving back their count); a worker that already holds one keeps its lease.
 * - Its messages stay (usage counts them), with their address and texts `[erased]`; their
 *   history, the events about it and its messages, those events' webhook deliveries (their
 *   bodies and the receivers' answers), the outbox jobs of its messages and runs, its runs'
 *   variables and history, and the stored idempotent responses that carry its id or one of its
 *   messages' ids lose every trace of its addresses, name, fields and texts.
 * - The contact row goes, with its tags and its recorded events (POST /events); `GET
 *   /contacts/{id}` then answers 404. `contato.apagado` is recorded with `{ id }`.
 */
export async function eraseContact(
  database: Database,
  caller: Pick<CallerInWorkspace, "workspaceId" | "mode">,
  id: string,
): Promise<ErasedContact> {
  await database.transaction(async (sql) => {
    const [locked] = await sql<Columns<"contacts", "id">>(`SELECT id FROM contacts WHERE id = $1 AND workspace_id = $2 FOR UPDATE`, [
      id,
      caller.workspaceId,
    ]);
    if (!locked) throw notFound("contact", "id");
    const contact = (await findContactBy(sql, caller.workspaceId, { id }))!;
    for (const mode of MODES) {
      await stopRuns(sql, { workspaceId: caller.workspaceId, contactId: id, key: null, mode, flowId: null }, "contact_erased");
    }
    await cancelQueued(sql, caller.workspaceId, id);

    const messages = await sql<Columns<"messages", "id" | "to" | "error"> & { content: Json; metadata: Json }>(
      `SELECT id, "to", content, error, metadata FROM messages WHERE workspace_id = $1 AND contact_id = $2`,
      [caller.workspaceId, id],
    );
    const secrets = new Secrets(id, [
      ...[contact.phone, contact.email, contact.name, contact.whatsapp_user_id, contact.whatsapp_username].filter((v): v is string => !!v),
      ...Object.values(contact.fields).filter((v): v is string => typeof v === "string"),
      ...messages.flatMap((m) => [...(m.to ? [m.to] : []), ...texts(m.content)]),
    ]);
    const messageIds = messages.map((m) => m.id);
    await eraseRows(sql, secrets, caller.workspaceId, messages, messageIds);
    await sql(`DELETE FROM contact_email_duplicates WHERE workspace_id = $2 AND contact_id = $1`, [id, caller.workspaceId]);
    await sql(`DELETE FROM contacts WHERE workspace_id = $2 AND id = $1`, [id, caller.workspaceId]);
    await insertEvent(sql, {
      workspaceId: caller.workspaceId,
      mode: caller.mode,
      name: "contato.apagado",
      data: { id, erased: true },
      contactId: id,
    });
  });
  // Stopped runs and the event have webhook deliveries to make.
  wakePipeline();
  return { id, erased: true };
}

/** The contact's queued outbound messages that no worker holds become `canceled` (D76's rule). */
async function cancelQueued(sql: Handle, workspaceId: string, contactId: string): Promise<void> {
  const queued = await sql<Columns<"messages", "id" | "channel" | "mode" | "created_at"> & { segments: number | null }>(
    `SELECT id, channel::text AS channel, mode::text AS mode, created_at, (sms->>'segments')::int AS segments FROM messages
     WHERE workspace_id = $1 AND contact_id = $2 AND status = 'queued' AND direction = 'outbound' ORDER BY id`,
    [workspaceId, contactId],
  );
  const taken = [];
  for (const m of queued) if (await takeUnclaimedJob(sql, workspaceId, m.id, ["message.dispatch", "message.simulate"])) taken.push(m);
  if (taken.length === 0) return;
  await applyReports(
    sql,
    taken.map((m) => ({
      messageId: m.id,
      workspaceId,
      report: { status: "canceled" as const, kind: "status" as const, detail: { by: "erase" } },
    })),
  );
  for (const m of taken) {
    if (m.mode === "live")
      await giveBack(sql, workspaceId, { channel: m.channel, acceptedAt: new Date(m.created_at), segments: m.segments });
  }
}

type MessageRow = Columns<"messages", "id" | "to" | "error"> & { content: Json; metadata: Json };

/** Rewrites, row by row, every place the contact's data was copied to (see `eraseContact`). */
async function eraseRows(sql: Handle, secrets: Secrets, workspaceId: string, messages: MessageRow[], messageIds: string[]) {
  const contactId = secrets.contactId;
  const update: Update = async (table, key, column, rows, cast) => {
    if (rows.length === 0) return;
    // Keys compared in the key column's own type, so that each row is found by its index.
    const keyType = table === "message_history" || table === "webhook_attempts" || table === "flow_run_history" ? "bigint" : "text";
    await sql(
      `UPDATE ${table} t SET ${column} = (x.value #>> '{}')${cast === "jsonb" ? "::jsonb" : ""}
       FROM jsonb_to_recordset($1::jsonb) AS x(key text, value jsonb) WHERE t.workspace_id = $2 AND t.${key} = x.key::${keyType}`,
      [JSON.stringify(rows.map((r) => ({ key: String(r.key), value: cast === "jsonb" ? JSON.stringify(r.value) : r.value }))), workspaceId],
    );
  };
  // Messages: address and texts.
  await update(
    "messages",
    "id",
    "content",
    messages.map((m) => ({ key: m.id, value: eraseContent(m.content) })),
    "jsonb",
  );
  await update(
    "messages",
    "id",
    "metadata",
    messages.map((m) => ({ key: m.id, value: secrets.json(m.metadata) })),
    "jsonb",
  );
  await sql(`UPDATE messages SET "to" = CASE WHEN "to" IS NULL THEN NULL ELSE $2 END WHERE workspace_id = $3 AND id = ANY($1::text[])`, [
    messageIds,
    ERASED,
    workspaceId,
  ]);
  await update(
    "messages",
    "id",
    "error",
    messages.filter((m) => m.error !== null && secrets.holds(m.error)).map((m) => ({ key: m.id, value: ERASED })),
    "text",
  );
  await eraseJson(
    sql,
    update,
    secrets,
    "message_history",
    "id",
    "detail",
    `SELECT id, detail AS value FROM message_history WHERE workspace_id = $2 AND message_id = ANY($1::text[])`,
    [messageIds, workspaceId],
  );
  // The event log: the contact's events and its messages' events.
  const events = await sql<{ id: string; value: Json }>(
    `SELECT id, data AS value FROM events WHERE workspace_id = $1 AND (contact_id = $2 OR (name LIKE 'mensagem.%' AND data->>'id' = ANY($3::text[])))`,
    [workspaceId, contactId, messageIds],
  );
  await update(
    "events",
    "id",
    "data",
    events.map((e) => ({ key: e.id, value: secrets.json(e.value) })),
    "jsonb",
  );
  const eventIds = events.map((e) => e.id);
  const deliveries = await sql<{ id: string; body: string | null; excerpt: string | null }>(
    `SELECT id, body, succeeded_excerpt AS excerpt FROM webhook_deliveries WHERE workspace_id = $2 AND event_id = ANY($1::text[])`,
    [eventIds, workspaceId],
  );
  await update(
    "webhook_deliveries",
    "id",
    "body",
    deliveries.filter((d) => d.body !== null).map((d) => ({ key: d.id, value: JSON.stringify(secrets.json(JSON.parse(d.body!) as Json)) })),
    "text",
  );
  // The attempt that succeeded is kept on its delivery; the failed ones are rows of their own.
  await update(
    "webhook_deliveries",
    "id",
    "succeeded_excerpt",
    deliveries.filter((d) => d.excerpt !== null && secrets.holds(d.excerpt)).map((d) => ({ key: d.id, value: ERASED })),
    "text",
  );
  const attempts = await sql<{ id: string; value: string | null }>(
    `SELECT id, response_excerpt AS value FROM webhook_attempts WHERE workspace_id = $2 AND delivery_id = ANY($1::text[]) AND response_excerpt IS NOT NULL`,
    [deliveries.map((d) => d.id), workspaceId],
  );
  await update(
    "webhook_attempts",
    "id",
    "response_excerpt",
    attempts.filter((a) => secrets.holds(a.value!)).map((a) => ({ key: a.id, value: ERASED })),
    "text",
  );
  // Runs: their variables and history, and the outbox jobs of its runs and messages.
  const runs = await sql<{ id: string; value: Json }>(
    `SELECT id, variables AS value FROM flow_runs WHERE workspace_id = $1 AND contact_id = $2`,
    [workspaceId, contactId],
  );
  await update(
    "flow_runs",
    "id",
    "variables",
    runs.map((r) => ({ key: r.id, value: secrets.json(r.value) })),
    "jsonb",
  );
  const runIds = runs.map((r) => r.id);
  await eraseJson(
    sql,
    update,
    secrets,
    "flow_run_history",
    "id",
    "detail",
    `SELECT id, detail AS value FROM flow_run_history WHERE workspace_id = $2 AND run_id = ANY($1::text[])`,
    [runIds, workspaceId],
  );
  await eraseJson(
    sql,
    update,
    secrets,
    "jobs",
    "id",
    "payload",
    `SELECT id, payload AS value FROM jobs WHERE workspace_id = $2 AND subject_id = ANY($1::text[])`,
    [[...messageIds, ...runIds, contactId], workspaceId],
  );
  // Stored idempotent responses that name the contact or one of its messages.
  const stored = await sql<{ key: string; value: string }>(
    `SELECT ctid::text AS key, response_body AS value FROM idempotency_records
     WHERE workspace_id = $1 AND response_body IS NOT NULL AND (strpos(response_body, $2) > 0 OR EXISTS (SELECT 1 FROM unnest($3::text[]) m WHERE strpos(response_body, m) > 0))`,
    [workspaceId, contactId, messageIds],
  );
  for (const r of stored) {
    let value: string;
    try {
      value = JSON.stringify(secrets.json(JSON.parse(r.value) as Json));
    } catch {
      value = secrets.text(r.value);
    }
    // The workspace named with the row's ctid (D87): a ctid is a place within one shard, and the
    // same place on every other shard holds another workspace's row.
    await sql(`UPDATE idempotency_records SET response_body = $2 WHERE workspace_id = $3 AND ctid = $1::tid`, [r.key, value, workspaceId]);
  }
}

type Update = (table: string, key: string, column: string, rows: { key: unknown; value: unknown }[], cast: string) => Promise<void>;

async function eraseJson(
  sql: Handle,
  update: Update,
  secrets: Secrets,
  table: string,
  key: string,
  column: string,
  select: string,
  params: unknown[],
) {
  const rows = await sql<{ id: string; value: Json }>(select, params);
  const changed = rows
    .map((r) => ({ key: r.id, value: secrets.json(r.value) }))
    .filter((r, i) => JSON.stringify(r.value) !== JSON.stringify(rows[i]!.value));
  await update(table, key, column, changed, "jsonb");
}
