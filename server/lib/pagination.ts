import { z } from "zod";
import { invalid } from "./errors.ts";

// List endpoints (D10): JSON arrays ordered by created_at then id, ascending; `limit` 1 to
// 1000 (default 100) and `after` (an id: the page starts after it); a `Link: rel="next"`
// header when more items exist.

export const ZPageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(1000).default(100).describe("Page size, 1 to 1000 (default 100)."),
  after: z.string().min(1).optional().describe("An id from the previous page: this page starts after it."),
});

export type PageQuery = z.infer<typeof ZPageQuery>;

export type Cursor = { createdAt: Date; id: string };

/** The `where` for rows after the cursor, in (created_at, id) order, ascending or descending. */
function afterCursor(cursor: Cursor | null, order: "asc" | "desc") {
  if (!cursor) return {};
  const op = order === "asc" ? "gt" : "lt";
  return {
    OR: [{ createdAt: { [op]: cursor.createdAt } }, { createdAt: cursor.createdAt, id: { [op]: cursor.id } }],
  };
}

export const PAGE_ORDER = [{ createdAt: "asc" as const }, { id: "asc" as const }];
export const NEWEST_FIRST = [{ createdAt: "desc" as const }, { id: "desc" as const }];

/**
 * One page of a workspace's list: `findCursor` finds the `after` row in the workspace (null:
 * unknown, a 400 on `after`), `findMany` reads rows matching `where` in PAGE_ORDER (a query
 * in SQL uses the cursor itself, as a row comparison the index answers). `url` is
 * the public URL of the list, for the `Link` header; null for the dashboard's lists.
 */
export async function listPage<T extends { id: string }>(
  query: PageQuery,
  url: string | null,
  findCursor: (id: string) => Promise<Cursor | null>,
  findMany: (where: ReturnType<typeof afterCursor>, take: number, cursor: Cursor | null) => Promise<T[]>,
  order: "asc" | "desc" = "asc",
): Promise<{ items: T[]; link: string | null; next: string | null }> {
  const cursor = query.after ? await findCursor(query.after) : null;
  if (query.after && !cursor) throw invalid("invalid_cursor", "`after` is not the id of an item of this list.", "after");
  return page(await findMany(afterCursor(cursor, order), query.limit + 1, cursor), query, url);
}

/** Cuts the extra row fetched to learn whether more exist, and builds the `Link` header. */
function page<T extends { id: string }>(
  rows: T[],
  query: PageQuery,
  url: string | null,
): { items: T[]; link: string | null; next: string | null } {
  const more = rows.length > query.limit;
  const items = more ? rows.slice(0, query.limit) : rows;
  const last = items[items.length - 1];
  if (!more || !last) return { items, link: null, next: null };
  if (!url) return { items, link: null, next: last.id };
  const nextUrl = new URL(url);
  nextUrl.searchParams.set("limit", String(query.limit));
  nextUrl.searchParams.set("after", last.id);
  return { items, link: `<${nextUrl.toString()}>; rel="next"`, next: last.id };
}
