import type { Database } from "../db/client.ts";
import type { CallerInWorkspace } from "../lib/caller.ts";
import { listPage, type Cursor, type PageQuery } from "../lib/pagination.ts";
import { CONTACT_EVENT_COLUMNS, contactEventView, type ContactEventRow, type ContactEventView } from "./contact-event-schemas.ts";

export type ContactEventFilter = { contact_id?: string; name?: string; created_after?: Date; created_before?: Date };

/**
 * GET /events (D61): the key's mode's events (D40), newest first (`created_at`, then `id`),
 * filtered, in D10's pages. The index on (workspace_id, mode, created_at, id) serves the
 * order and the cursor; with `contact_id`, the contact's index.
 */
export async function listContactEvents(
  database: Database,
  actor: Pick<CallerInWorkspace, "workspaceId" | "mode">,
  filter: ContactEventFilter,
  query: PageQuery,
  url: string | null,
): Promise<{ items: ContactEventView[]; link: string | null; next: string | null }> {
  const { items, link, next } = await listPage(
    query,
    url,
    async (id) => {
      const [cursor] = await database.query<Cursor>(
        `SELECT id, created_at AS "createdAt" FROM contact_events WHERE id = $1 AND workspace_id = $2 AND mode = $3::"KeyMode"`,
        [id, actor.workspaceId, actor.mode],
      );
      return cursor ?? null;
    },
    (_, take, cursor) => {
      const values: unknown[] = [actor.workspaceId, actor.mode];
      const param = (value: unknown) => `$${values.push(value)}`;
      const where = [`e.workspace_id = $1`, `e.mode = $2::"KeyMode"`];
      if (filter.contact_id) where.push(`e.contact_id = ${param(filter.contact_id)}`);
      if (filter.name) where.push(`e.name = ${param(filter.name)}`);
      if (filter.created_after) where.push(`e.created_at > ${param(filter.created_after)}`);
      if (filter.created_before) where.push(`e.created_at < ${param(filter.created_before)}`);
      if (cursor) where.push(`(e.created_at, e.id) < (${param(cursor.createdAt)}, ${param(cursor.id)})`);
      return database.query<ContactEventRow>(
        `SELECT ${CONTACT_EVENT_COLUMNS} FROM contact_events e WHERE ${where.join(" AND ")}
         ORDER BY e.created_at DESC, e.id DESC LIMIT ${param(take)}`,
        values,
      );
    },
    "desc",
  );
  return { items: items.map(contactEventView), link, next };
}
