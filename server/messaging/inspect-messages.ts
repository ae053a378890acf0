import type { ChannelType } from "../generated/prisma/enums.ts";
import type { Database } from "../db/client.ts";
import type { Columns } from "../db/rows.ts";
import type { Message as MessageModel } from "../generated/prisma/client.ts";
import { listPage, type Cursor, type PageQuery } from "../lib/pagination.ts";
import { normalizePhone } from "../lib/phone.ts";
import { errorReason } from "./error-reason.ts";
import { EXPORT_CAP } from "./export-cap.ts";
import { MESSAGE_VIEW_COLUMNS, messageView, type Message, type MessageRow } from "./message-schemas.ts";

// The dashboard's message inspector (admins and support staff): find messages by id, phone
// or e-mail; filter by status, channel, mode and date; open one with its whole history.

export type MessageFilter = {
  q?: string;
  status?: Message["status"];
  channel?: ChannelType;
  mode?: "test" | "live";
  from?: Date;
  to?: Date;
  /** One contact's messages (its page): the index on (workspace_id, contact_id, created_at, id). */
  contact_id?: string;
};

const PHONE_LIKE = /^\+?[\d\s().-]+$/;

/**
 * What the search box holds, as the condition an index answers (docs/messages.md "Growth"):
 * an e-mail address or a phone number is matched whole on lower("to") (the index on
 * workspace_id, lower("to"), created_at, id); anything else is a message id or a provider
 * message id (the primary key or the provider id's index). A phone is normalized as sends are
 * (D1), with the workspace's default country; one that cannot be a phone matches nothing.
 */
type Search = { sql: string; value: string };

async function searchCondition(database: Database, workspaceId: string, q: string): Promise<Search | null> {
  if (q.includes("@")) return { sql: `lower("to") = lower($Q)`, value: q.trim() };
  if (PHONE_LIKE.test(q) && /\d/.test(q)) {
    const ws = await database.prisma.workspace.findUnique({ where: { id: workspaceId }, select: { defaultCountry: true } });
    try {
      return { sql: `lower("to") = $Q`, value: normalizePhone(q, ws?.defaultCountry ?? null, "q") };
    } catch {
      return null;
    }
  }
  return { sql: `(id = $Q OR provider_message_id = $Q)`, value: q };
}

type Row = MessageRow &
  Pick<MessageModel, "mode" | "source" | "apiKeyId" | "runId"> & {
    contactName: string | null;
    contactPhone: string | null;
    contactEmail: string | null;
    apiKeyName: string | null;
    flowId: string | null;
    flowName: string | null;
    summaryKind: "text" | "template" | "subject" | "media" | null;
    summary: string | null;
  };

/** How long a row's content snippet is (the page and the export cut it there). */
const SNIPPET = 140;

/**
 * One page of the inspector's list, with the names the rows show, in one statement: the page
 * is cut first (the workspace's index, newest first), then its contact, API key and flow are
 * looked up by primary key (LATERAL … LIMIT 1 keeps them row by row: a hash join would read
 * the whole runs table for a page of 500), so names cost no query per row.
 */
function selectPage(
  database: Database,
  workspaceId: string,
  search: Search | null,
  filter: MessageFilter,
  take: number,
  cursor: Cursor | null,
) {
  const values: unknown[] = [workspaceId];
  const param = (value: unknown) => `$${values.push(value)}`;
  const where = ["workspace_id = $1"];
  if (search) where.push(search.sql.replaceAll("$Q", param(search.value)));
  if (filter.mode) where.push(`mode = ${param(filter.mode)}::"KeyMode"`);
  if (filter.channel) where.push(`channel = ${param(filter.channel)}::"ChannelType"`);
  if (filter.status) where.push(`status = ${param(filter.status)}::"MessageStatus"`);
  if (filter.contact_id) where.push(`contact_id = ${param(filter.contact_id)}`);
  if (filter.from) where.push(`created_at >= ${param(filter.from)}`);
  if (filter.to) where.push(`created_at < ${param(filter.to)}`);
  if (cursor) where.push(`(created_at, id) < (${param(cursor.createdAt)}, ${param(cursor.id)})`);
  return database.query<Row>(
    `SELECT ${MESSAGE_VIEW_COLUMNS}, m.mode::text AS mode, m.source,
            c.name AS "contactName", c.phone AS "contactPhone", c.email AS "contactEmail",
            m.api_key_id AS "apiKeyId", k.name AS "apiKeyName", m.run_id AS "runId", rf.flow_id AS "flowId", rf.name AS "flowName",
            CASE WHEN m.channel = 'email' THEN 'subject' WHEN m.content ? 'template' THEN 'template'
                 WHEN m.content ? 'body' OR m.content ? 'text' THEN 'text' WHEN m.content ? 'media_url' OR m.content ? 'media_type' THEN 'media' END AS "summaryKind",
            left(CASE WHEN m.channel = 'email' THEN m.content->>'subject' WHEN m.content ? 'template' THEN m.content->'template'->>'name'
                      ELSE coalesce(m.content->>'body', m.content->>'text', m.content->>'media_type') END, ${SNIPPET}) AS summary
     FROM (SELECT * FROM messages WHERE ${where.join(" AND ")} ORDER BY created_at DESC, id DESC LIMIT ${param(take)}) m
     LEFT JOIN LATERAL (SELECT name, phone, email FROM contacts WHERE id = m.contact_id LIMIT 1) c ON true
     LEFT JOIN api_keys k ON k.id = m.api_key_id
     LEFT JOIN LATERAL (
       SELECT r.flow_id, f.name FROM flow_runs r JOIN flows f ON f.workspace_id = r.workspace_id AND f.id = r.flow_id
       WHERE r.workspace_id = m.workspace_id AND r.id = m.run_id LIMIT 1
     ) rf ON true
     ORDER BY m.created_at DESC, m.id DESC`,
    values,
  );
}

/** A row of the inspector's list: the Message, and what a person needs to tell rows apart. */
function rowView(m: Row) {
  return {
    ...messageView(m),
    mode: m.mode,
    contact: { id: m.contactId, name: m.contactName, phone: m.contactPhone, email: m.contactEmail },
    source: sourceView(m),
    summary: m.summaryKind && m.summary !== null ? { kind: m.summaryKind, text: m.summary } : null,
    error_reason: errorReason(m.errorCode),
  };
}

export type MessageSource =
  | { kind: "api"; key_id: string | null; key_name: string | null }
  | { kind: "flow"; run_id: string | null; flow_id: string | null; flow_name: string | null }
  | { kind: "inbound" }
  | { kind: "other"; name: string };

function sourceView(m: Pick<Row, "source" | "apiKeyId" | "apiKeyName" | "runId" | "flowId" | "flowName">): MessageSource {
  if (m.source === "api") return { kind: "api", key_id: m.apiKeyId, key_name: m.apiKeyName };
  if (m.source === "flow") return { kind: "flow", run_id: m.runId, flow_id: m.flowId, flow_name: m.flowName };
  if (m.source === "inbound") return { kind: "inbound" };
  return { kind: "other", name: m.source };
}

/**
 * The inspector's list, newest first, always within the workspace, paged by (created_at, id):
 * every form reads only the rows it returns through an index, however many messages the
 * workspace and the others hold.
 */
export async function searchMessages(database: Database, workspaceId: string, filter: MessageFilter, query: PageQuery) {
  const q = filter.q?.trim();
  const search = q ? await searchCondition(database, workspaceId, q) : null;
  if (q && !search) return { items: [], next: null };
  const { items, next } = await listPage(
    query,
    null,
    (id) => database.prisma.message.findFirst({ where: { id, workspaceId }, select: { id: true, createdAt: true } }),
    (_where, take, cursor) => selectPage(database, workspaceId, search, filter, take, cursor),
    "desc",
  );
  return { items: items.map(rowView), next };
}

export type InspectorRow = ReturnType<typeof rowView>;

const EXPORT_PAGE = 500;

/**
 * The inspector's list for a CSV export: the same rows as the pages, newest first, read page
 * by page (each an index range after the last row), at most EXPORT_CAP of them.
 */
export async function* exportMessages(database: Database, workspaceId: string, filter: MessageFilter): AsyncGenerator<InspectorRow[]> {
  const q = filter.q?.trim();
  const search = q ? await searchCondition(database, workspaceId, q) : null;
  if (q && !search) return;
  let cursor: Cursor | null = null;
  let left = EXPORT_CAP;
  while (left > 0) {
    const rows = await selectPage(database, workspaceId, search, filter, Math.min(EXPORT_PAGE, left), cursor);
    if (rows.length === 0) return;
    yield rows.map(rowView);
    left -= rows.length;
    const last = rows[rows.length - 1]!;
    cursor = { createdAt: last.createdAt, id: last.id };
    if (rows.length < EXPORT_PAGE) return;
  }
}

/**
 * One message with its rendered content, its history (oldest first), the names of its
 * contact, key and flow, and the webhook deliveries of its events.
 */
export async function messageDetail(database: Database, workspaceId: string, id: string) {
  const m = await database.prisma.message.findFirst({
    where: { id, workspaceId },
    include: { history: { orderBy: [{ at: "asc" }, { id: "asc" }] } },
  });
  if (!m) return null;
  const [contact, key, run, deliveries, retry] = await Promise.all([
    database.prisma.contact.findFirst({
      where: { id: m.contactId, workspaceId },
      select: { id: true, name: true, phone: true, email: true },
    }),
    m.apiKeyId
      ? database.prisma.apiKey.findFirst({ where: { id: m.apiKeyId, workspaceId }, select: { name: true } })
      : Promise.resolve(null),
    m.runId
      ? database.prisma.flowRun.findFirst({
          where: { id: m.runId, workspaceId },
          select: { flowId: true, flow: { select: { name: true } } },
        })
      : Promise.resolve(null),
    messageDeliveries(database, workspaceId, m.id),
    m.status === "queued" ? pendingRetry(database, workspaceId, m.id) : Promise.resolve(null),
  ]);
  return {
    ...messageView(m),
    mode: m.mode,
    channel_id: m.channelId,
    contact: contact ?? { id: m.contactId, name: null, phone: null, email: null },
    source: sourceView({
      source: m.source,
      apiKeyId: m.apiKeyId,
      apiKeyName: key?.name ?? null,
      runId: m.runId,
      flowId: run?.flowId ?? null,
      flowName: run?.flow.name ?? null,
    }),
    error_reason: errorReason(m.errorCode),
    content: m.content,
    failed_at: m.failedAt?.toISOString() ?? null,
    retry,
    history: m.history.map((h) => ({ id: String(h.id), at: h.at.toISOString(), kind: h.kind, status: h.status, detail: h.detail })),
    deliveries,
  };
}

/**
 * A queued message waiting to be tried again (D39's temporary failures): the last attempt's
 * error, how many attempts failed, and when the next is due (null while one is under way), from its dispatch job (the job
 * keeps the error; the message's `error` is set only when it fails for good). Null when no
 * attempt failed yet.
 */
async function pendingRetry(database: Database, workspaceId: string, messageId: string) {
  const job = await database.prisma.job.findFirst({
    where: { subjectId: messageId, workspaceId, kind: "message.dispatch", lastError: { not: null } },
    select: { lastError: true, attempts: true, runAt: true, leaseOwner: true },
  });
  if (!job?.lastError) return null;
  // A claimed job counts the attempt under way (jobs.ts): that one has not failed (yet).
  const trying = job.leaseOwner !== null;
  return {
    error: job.lastError,
    failed_attempts: job.attempts - (trying ? 1 : 0),
    next_attempt_at: trying ? null : job.runAt.toISOString(),
  };
}

type DeliveryRow = Columns<
  "webhook_deliveries",
  "id" | "endpoint_id" | "event_name" | "status" | "attempts" | "last_status_code" | "last_error" | "created_at" | "updated_at"
> & { endpoint_url: string };

/** The webhook deliveries of a message's events (the index on its `mensagem.*` events by message id), oldest first. */
async function messageDeliveries(database: Database, workspaceId: string, messageId: string) {
  const rows = await database.query<DeliveryRow>(
    `SELECT d.id, d.endpoint_id, w.url AS endpoint_url, d.event_name, d.status, d.attempts, d.last_status_code, d.last_error, d.created_at, d.updated_at
     FROM events e
     JOIN webhook_deliveries d ON d.workspace_id = e.workspace_id AND d.event_id = e.id
     JOIN webhook_endpoints w ON w.workspace_id = d.workspace_id AND w.id = d.endpoint_id
     WHERE e.workspace_id = $1 AND e.name LIKE 'mensagem.%' AND e.data->>'id' = $2
     ORDER BY d.created_at, d.id
     LIMIT 100`,
    [workspaceId, messageId],
  );
  return rows.map((d) => ({
    id: d.id,
    endpoint_id: d.endpoint_id,
    endpoint_url: d.endpoint_url,
    event: d.event_name,
    status: d.status,
    attempts: d.attempts,
    last_status_code: d.last_status_code,
    last_error: d.last_error,
    created_at: new Date(d.created_at).toISOString(),
    updated_at: new Date(d.updated_at).toISOString(),
  }));
}
