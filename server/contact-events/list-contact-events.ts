import type { Database } from "../db/client.ts";
import type { KeyMode } from "../generated/prisma/enums.ts";
import type { CallerInWorkspace } from "../lib/caller.ts";
import { listPage, type Cursor, type PageQuery } from "../lib/pagination.ts";
import { CONTACT_EVENT_COLUMNS, contactEventView, type ContactEventRow, type ContactEventView } from "./contact-event-schemas.ts";

export type ContactEventFilter = { contact_id?: string; name?: string; created_after?: Date; created_before?: Date };

/** Whose events a list reads: a workspace's, in one mode (a key's, D40), or in both (`null`: the dashboard's contact page). */
type Scope = Pick<CallerInWorkspace, "workspaceId"> & { mode: KeyMode | null };

/**
 * GET /events (D61): the key's mode's events (D40), newest first (`created_at`, then `id`),
 * filtered, in D10's pages. The index on (workspace_id, mode, created_at, id) serves the
 * order and the cursor; with `contact_id`, the contact's index. Each event says its mode (the
 * public Event leaves it out: a key reads only its own).
 */
export async function listContactEvents(
  database: Database,
  scope: Scope,
  filter: ContactEventFilter,
  query: PageQuery,
  url: string | null,
): Promise<{ items: (ContactEventView & { mode: KeyMode })[]; link: string | null; next: string | null }> {
  const inMode = (alias: string, values: unknown[]) => (scope.mode ? [`${alias}.mode = $${values.push(scope.mode)}::"KeyMode"`] : []);
  const { items, link, next } = await listPage(
    query,
    url,
    async (id) => {
      const values: unknown[] = [id, scope.workspaceId];
      const where = [`e.id = $1`, `e.workspace_id = $2`, ...inMode("e", values)];
      const [cursor] = await database.query<Cursor>(
        `SELECT e.id, e.created_at AS "createdAt" FROM contact_events e WHERE ${where.join(" AND ")}`,
        values,
      );
      return cursor ?? null;
    },
    (_, take, cursor) => {
      const values: unknown[] = [scope.workspaceId];
      const param = (value: unknown) => `$${values.push(value)}`;
      const where = [`e.workspace_id = $1`, ...inMode("e", values)];
      if (filter.contact_id) where.push(`e.contact_id = ${param(filter.contact_id)}`);
      if (filter.name) where.push(`e.name = ${param(filter.name)}`);
      if (filter.created_after) where.push(`e.created_at > ${param(filter.created_after)}`);
      if (filter.created_before) where.push(`e.created_at < ${param(filter.created_before)}`);
      if (cursor) where.push(`(e.created_at, e.id) < (${param(cursor.createdAt)}, ${param(cursor.id)})`);
      return database.query<ContactEventRow & { mode: KeyMode }>(
        `SELECT ${CONTACT_EVENT_COLUMNS}, e.mode::text AS mode FROM contact_events e WHERE ${where.join(" AND ")}
         ORDER BY e.created_at DESC, e.id DESC LIMIT ${param(take)}`,
        values,
      );
    },
    "desc",
  );
  return { items: items.map((e) => ({ ...contactEventView(e), mode: e.mode })), link, next };
}

/** The events of a workspace with these ids (a run's history names them), whatever their mode; one statement by primary key. */
export async function contactEventsByIds(database: Database, workspaceId: string, ids: string[]): Promise<ContactEventView[]> {
  if (ids.length === 0) return [];
  const rows = await database.query<ContactEventRow>(
    `SELECT ${CONTACT_EVENT_COLUMNS} FROM contact_events e WHERE e.id = ANY($1::text[]) AND e.workspace_id = $2`,
    [[...new Set(ids)], workspaceId],
  );
  return rows.map(contactEventView);
}

/** What an event did to a run it did not start: woke it from a `wait_for` (D63), counted its goal (D64). */
export type EventEffect = { event_id: string; run_id: string; flow_id: string; effect: "woke" | "converted" };

/**
 * The runs these events of one contact woke or converted, as the runs' histories say (an event's
 * `triggered` names only the runs it started): the contact's runs by their index, their history
 * by run. Oldest first.
 */
export async function contactEventEffects(
  database: Database,
  workspaceId: string,
  contactId: string,
  eventIds: string[],
): Promise<EventEffect[]> {
  if (eventIds.length === 0) return [];
  return database.query<EventEffect>(
    `SELECT h.detail->>'event_id' AS event_id, r.id AS run_id, r.flow_id, h.kind AS effect
     FROM flow_runs r JOIN flow_run_history h ON h.workspace_id = r.workspace_id AND h.run_id = r.id
     WHERE r.workspace_id = $1 AND r.contact_id = $2 AND h.kind IN ('woke', 'converted') AND h.detail->>'event_id' = ANY($3::text[])
     ORDER BY h.at, h.id`,
    [workspaceId, contactId, eventIds],
  );
}
