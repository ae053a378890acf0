import type { Database } from "../db/client.ts";
import { afterCursor, page, unknownCursor, type PageQuery } from "../lib/pagination.ts";
import { tagView } from "./tag-schemas.ts";

export async function listTags(database: Database, workspaceId: string, query: PageQuery, url: string) {
  const cursor = query.after
    ? ((await database.prisma.tag.findFirst({ where: { id: query.after, workspaceId }, select: { id: true, createdAt: true } })) ??
      unknownCursor())
    : null;
  const rows = await database.prisma.tag.findMany({
    where: { workspaceId, ...afterCursor(cursor) },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    take: query.limit + 1,
  });
  const result = page(rows, query, url);
  return { items: result.items.map(tagView), link: result.link };
}
