import type { Database } from "../db/client.ts";
import { listPage, PAGE_ORDER, type PageQuery } from "../lib/pagination.ts";
import { fieldView } from "./field-schemas.ts";

export async function listFields(database: Database, workspaceId: string, query: PageQuery, url: string) {
  const { items, link } = await listPage(
    query,
    url,
    (id) => database.prisma.customField.findFirst({ where: { id, workspaceId }, select: { id: true, createdAt: true } }),
    (where, take) => database.prisma.customField.findMany({ where: { workspaceId, ...where }, orderBy: PAGE_ORDER, take }),
  );
  return { items: items.map(fieldView), link };
}
