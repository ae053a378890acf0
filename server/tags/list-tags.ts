import type { Database } from "../db/client.ts";
import { listPage, PAGE_ORDER, type PageQuery } from "../lib/pagination.ts";
import { tagView } from "./tag-schemas.ts";

export async function listTags(database: Database, workspaceId: string, query: PageQuery, url: string) {
  const { items, link } = await listPage(
    query,
    url,
    (id) => database.prisma.tag.findFirst({ where: { id, workspaceId }, select: { id: true, createdAt: true } }),
    (where, take) => database.prisma.tag.findMany({ where: { workspaceId, ...where }, orderBy: PAGE_ORDER, take }),
  );
  return { items: items.map(tagView), link };
}
