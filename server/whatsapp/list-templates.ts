import type { Database } from "../db/client.ts";
import { listPage, PAGE_ORDER, type PageQuery } from "../lib/pagination.ts";
import { TEMPLATE_CATEGORIES, TEMPLATE_STATUSES, type Template, type TemplateStatus } from "./template-schemas.ts";
import type { WhatsAppTemplate } from "../generated/prisma/client.ts";

type TemplateRow = Pick<
  WhatsAppTemplate,
  "id" | "channelId" | "name" | "language" | "category" | "status" | "parameters" | "body" | "updatedAt"
>;

export function templateView(row: TemplateRow): Template {
  return {
    id: row.id,
    channel_id: row.channelId,
    name: row.name,
    language: row.language,
    category: (TEMPLATE_CATEGORIES as readonly string[]).includes(row.category) ? (row.category as Template["category"]) : "utility",
    status: (TEMPLATE_STATUSES as readonly string[]).includes(row.status) ? (row.status as TemplateStatus) : "disabled",
    parameters: Array.isArray(row.parameters) ? (row.parameters as string[]) : [],
    body: row.body,
    updated_at: row.updatedAt.toISOString(),
  };
}

const TEMPLATE_SELECT = {
  id: true,
  channelId: true,
  name: true,
  language: true,
  category: true,
  status: true,
  parameters: true,
  body: true,
  updatedAt: true,
  createdAt: true,
} as const;

export type TemplateFilter = { channel_id?: string; status?: TemplateStatus };

/** GET /whatsapp/templates (D41): the workspace's templates in D10's order and pages. */
export async function listTemplates(
  database: Database,
  workspaceId: string,
  filter: TemplateFilter,
  query: PageQuery,
  url: string | null,
): Promise<{ items: Template[]; link: string | null }> {
  const where = {
    workspaceId,
    ...(filter.channel_id ? { channelId: filter.channel_id } : {}),
    ...(filter.status ? { status: filter.status } : {}),
  };
  const { items, link } = await listPage(
    query,
    url,
    (id) => database.prisma.whatsAppTemplate.findFirst({ where: { id, workspaceId }, select: { id: true, createdAt: true } }),
    (after, take) =>
      database.prisma.whatsAppTemplate.findMany({ where: { AND: [where, after] }, orderBy: PAGE_ORDER, take, select: TEMPLATE_SELECT }),
  );
  return { items: items.map(templateView), link };
}
