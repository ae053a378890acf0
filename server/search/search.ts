import type { Database } from "../db/client.ts";
import { normalizePhone } from "../lib/phone.ts";

// The dashboard's one search box (docs/dashboard.md "Search"): what a support agent has in
// hand, whatever it is, answered from indexes only. Every query is bounded by the workspace
// and by PER_KIND; nothing scans a table with ILIKE '%…%'.

export const PER_KIND = 5;

export type SearchHit = {
  kind: "message" | "contact" | "flow" | "run" | "delivery";
  id: string;
  /** What the row is called: a contact's name, a message's recipient, a flow's name. */
  title: string;
  /** A second line: a message's status and channel, a delivery's event, why it matched. */
  detail: string;
  /** What the hit's page is under: a run's flow, a delivery's endpoint. */
  parent_id: string | null;
  /** The mode of a message, run or delivery (D40; the dashboard's search reads both); null for contacts and flows, which have none. */
  mode: "live" | "test" | null;
  created_at: string;
};

export type SearchResult = { q: string; hits: SearchHit[] };

const PHONE_LIKE = /^\+?[\d\s().-]+$/;
const isPhoneLike = (q: string) => PHONE_LIKE.test(q) && (q.match(/\d/g)?.length ?? 0) >= 6;
/** The longest value searched: metadata values and names are short (D57's metadata values are at most 500 characters). */
export const MAX_QUERY = 200;

type Row = {
  kind: SearchHit["kind"];
  id: string;
  title: string | null;
  detail: string | null;
  parent_id: string | null;
  mode: "live" | "test" | null;
  created_at: Date;
};

const MESSAGE_COLUMNS = `'message' AS kind, m.id, coalesce(c.name, m."to", m.id) AS title,
  m.channel::text || ' · ' || m.status::text || CASE WHEN c.name IS NOT NULL AND m."to" IS NOT NULL THEN ' · ' || m."to" ELSE '' END AS detail,
  m.contact_id AS parent_id, m.mode::text AS mode, m.created_at`;
// The message's contact, by its key, in the workspace given as `$1` (every statement below): Citus
// routes a join to the workspace's shard only when each table names it; a contact joined to
// the messages of a subquery (its LIMIT read first) by their column alone was read on every
// shard (D87).
const MESSAGE_FROM = (alias: string) =>
  `LEFT JOIN contacts c ON c.workspace_id = $1 AND c.workspace_id = ${alias}.workspace_id AND c.id = ${alias}.contact_id`;
const CONTACT_COLUMNS = `'contact' AS kind, id, coalesce(name, phone, email, id) AS title,
  concat_ws(' · ', CASE WHEN name IS NOT NULL THEN phone END, CASE WHEN name IS NOT NULL OR phone IS NOT NULL THEN email END) AS detail,
  NULL AS parent_id, NULL AS mode, created_at`;

/**
 * The reads one query runs, at once, by what it looks like:
 * - an e-mail address: contacts by their lower-cased e-mail (unique index), messages by
 *   lower("to") (the inspector's index);
 * - a phone number in any format: normalized as sends are (D1, the workspace's default
 *   country), then contacts by phone (unique index) and messages by lower("to");
 * - anything else: an id of any kind (primary keys; a provider message id; a webhook event id),
 *   a contact's name from its start (lower(name) text_pattern_ops), the messages of the
 *   contacts so named (their newest, by contact), a metadata value whole (`byMetadata`), and a flow's name
 *   from its start (a workspace's flows are few).
 */
async function lookups(database: Database, workspaceId: string, q: string): Promise<(() => Promise<Row[]>)[]> {
  const run = (statements: { sql: string; values: unknown[] }[]) => statements.map((s) => () => database.query<Row>(s.sql, s.values));
  const lim = PER_KIND;
  if (q.includes("@") && !/\s/.test(q)) {
    const email = q.toLowerCase();
    return run([
      {
        sql: `SELECT ${CONTACT_COLUMNS} FROM contacts WHERE workspace_id = $1 AND email_key = $2 LIMIT ${lim}`,
        values: [workspaceId, email],
      },
      {
        sql: `SELECT ${MESSAGE_COLUMNS} FROM (SELECT * FROM messages WHERE workspace_id = $1 AND lower("to") = $2 ORDER BY created_at DESC, id DESC LIMIT ${lim}) m ${MESSAGE_FROM("m")}`,
        values: [workspaceId, email],
      },
    ]);
  }
  if (isPhoneLike(q)) {
    const ws = await database.prisma.workspace.findUnique({ where: { id: workspaceId }, select: { defaultCountry: true } });
    let phone: string;
    try {
      phone = normalizePhone(q, ws?.defaultCountry ?? null, "q");
    } catch {
      return [];
    }
    return run([
      { sql: `SELECT ${CONTACT_COLUMNS} FROM contacts WHERE workspace_id = $1 AND phone = $2 LIMIT ${lim}`, values: [workspaceId, phone] },
      {
        sql: `SELECT ${MESSAGE_COLUMNS} FROM (SELECT * FROM messages WHERE workspace_id = $1 AND lower("to") = $2 ORDER BY created_at DESC, id DESC LIMIT ${lim}) m ${MESSAGE_FROM("m")}`,
        values: [workspaceId, phone],
      },
    ]);
  }
  const found: { sql: string; values: unknown[] }[] = [
    // Ids: each primary key (and a provider's message id, a webhook event id), in this workspace only.
    {
      sql: `SELECT ${MESSAGE_COLUMNS} FROM (SELECT * FROM messages WHERE workspace_id = $1 AND (id = $2 OR provider_message_id = $2) LIMIT ${lim}) m ${MESSAGE_FROM("m")}`,
      values: [workspaceId, q],
    },
    { sql: `SELECT ${CONTACT_COLUMNS} FROM contacts WHERE workspace_id = $1 AND id = $2`, values: [workspaceId, q] },
    {
      sql: `SELECT 'run' AS kind, r.id, f.name AS title, r.status::text || ' · ' || r.contact_id AS detail, r.flow_id AS parent_id, r.mode::text AS mode, r.created_at
            FROM flow_runs r JOIN flows f ON f.workspace_id = r.workspace_id AND f.id = r.flow_id WHERE r.workspace_id = $1 AND r.id = $2`,
      values: [workspaceId, q],
    },
    {
      sql: `SELECT 'delivery' AS kind, d.id, d.event_name AS title, d.status || ' · ' || d.event_id || ' · ' || e.url AS detail, d.endpoint_id AS parent_id, ev.mode::text AS mode, d.created_at
            FROM webhook_deliveries d JOIN webhook_endpoints e ON e.workspace_id = d.workspace_id AND e.id = d.endpoint_id
            LEFT JOIN events ev ON ev.workspace_id = d.workspace_id AND ev.id = d.event_id
            WHERE d.workspace_id = $1 AND (d.id = $2 OR d.event_id = $2) ORDER BY d.created_at DESC LIMIT ${lim}`,
      values: [workspaceId, q],
    },
    // Flows: by id, or by name from its start.
    {
      sql: `SELECT 'flow' AS kind, id, name AS title, status::text AS detail, NULL AS parent_id, NULL AS mode, created_at FROM flows
            WHERE workspace_id = $1 AND (id = $2 OR lower(name) LIKE $3 ESCAPE '\\') ORDER BY created_at DESC LIMIT ${lim}`,
      values: [workspaceId, q, `${likePrefix(q.toLowerCase())}%`],
    },
  ];
  if (q.length >= 2) {
    const name = q.toLowerCase();
    const range = `lower(name) ~>=~ $2 AND lower(name) ~<~ ($2 || chr(1114111))`;
    found.push(
      {
        sql: `SELECT ${CONTACT_COLUMNS} FROM contacts WHERE workspace_id = $1 AND name IS NOT NULL AND ${range} ORDER BY lower(name) LIMIT ${lim}`,
        values: [workspaceId, name],
      },
      // The contacts' own messages, newest first: each contact's newest few by its index, then the newest of those.
      {
        sql: `SELECT ${MESSAGE_COLUMNS} FROM (SELECT id, name FROM contacts WHERE workspace_id = $1 AND name IS NOT NULL AND ${range} ORDER BY lower(name) LIMIT ${lim}) c
              CROSS JOIN LATERAL (SELECT * FROM messages WHERE workspace_id = $1 AND contact_id = c.id ORDER BY created_at DESC, id DESC LIMIT ${lim}) m
              ORDER BY m.created_at DESC LIMIT ${lim}`,
        values: [workspaceId, name],
      },
    );
  }
  return [...run(found), () => byMetadata(database, workspaceId, q)];
}

function likePrefix(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

const ORDER: SearchHit["kind"][] = ["message", "contact", "flow", "run", "delivery"];

/** Matches of a metadata value read through the GIN index before its newest are taken instead by walking the workspace's messages. */
const RARE = 1_000;
const TERM = `message_metadata_terms(workspace_id, metadata) @> ARRAY[$1 || ' ' || $2]`;

/**
 * A metadata value, whole, by any key: the newest messages that carry it, by whichever read is
 * short for that value. Each connection keeps a statement's plan (server/db/client.ts), and
 * the plan it settles on knows neither value: for one statement doing both, it walked the
 * workspace's messages newest first testing each (535 ms at 40,000 messages a workspace when
 * the value is rare, 0.2 ms when most carry it). So: first the value's matches from the GIN
 * index alone (each term holds its workspace's id, which has no space), at most RARE of
 * them, the newest taken; a value carried by more is common, and the walk finds its newest
 * at once. Both name the workspace as well, so that Citus reads its shard alone (D87).
 */
async function byMetadata(database: Database, workspaceId: string, q: string): Promise<Row[]> {
  const rows = await database.query<Row & { total: string | number }>(
    `SELECT ${MESSAGE_COLUMNS}, f.total FROM (
       SELECT id, created_at, count(*) OVER () AS total FROM (SELECT id, created_at FROM messages WHERE workspace_id = $1 AND ${TERM} LIMIT ${RARE + 1}) x
       ORDER BY created_at DESC, id DESC LIMIT ${PER_KIND}) f
     JOIN messages m ON m.id = f.id AND m.workspace_id = $1 ${MESSAGE_FROM("m")}`,
    [workspaceId, q],
  );
  if (rows.length === 0 || Number(rows[0]!.total) <= RARE) return rows;
  return database.query<Row>(
    `SELECT ${MESSAGE_COLUMNS} FROM (SELECT * FROM messages WHERE workspace_id = $1 AND ${TERM}
       ORDER BY created_at DESC, id DESC LIMIT ${PER_KIND}) m ${MESSAGE_FROM("m")}`,
    [workspaceId, q],
  );
}

/** Everything in the workspace that `q` names, grouped by kind in a fixed order (messages first), at most PER_KIND of each. */
export async function searchWorkspace(database: Database, workspaceId: string, query: string): Promise<SearchResult> {
  const q = query.trim().slice(0, MAX_QUERY);
  if (!q) return { q, hits: [] };
  const rows = (await Promise.all((await lookups(database, workspaceId, q)).map((lookup) => lookup()))).flat();
  const seen = new Set<string>();
  const hits: SearchHit[] = [];
  for (const kind of ORDER) {
    const ofKind = rows.filter((r) => r.kind === kind && !seen.has(r.id));
    ofKind.sort((a, b) => new Date(b.created_at).getTime() - new Date(a.created_at).getTime());
    for (const r of ofKind.slice(0, PER_KIND)) {
      if (seen.has(r.id)) continue;
      seen.add(r.id);
      hits.push({
        kind,
        id: r.id,
        title: r.title ?? r.id,
        detail: r.detail ?? "",
        parent_id: r.parent_id,
        mode: r.mode ?? null,
        created_at: new Date(r.created_at).toISOString(),
      });
    }
  }
  return { q, hits };
}
