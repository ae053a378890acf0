import type { Database } from "../db/client.ts";
import { invalid, notFound } from "../lib/errors.ts";
import type { PageQuery } from "../lib/pagination.ts";
import { flowDocument } from "./flow-views.ts";

/**
 * GET /flows/{flow_id}/versions (D98): a flow's versions, oldest first, in D10's pages; the
 * cursor `after` is a version number (versions are numbered in the order they were saved).
 */
export async function listFlowVersions(database: Database, workspaceId: string, flowId: string, query: PageQuery, url: string) {
  const flow = await database.prisma.flow.findFirst({
    where: { id: flowId, workspaceId },
    select: { name: true, status: true, allowReentry: true, version: true },
  });
  if (!flow) throw notFound("flow", "flow_id");
  const after = query.after === undefined ? 0 : Number(query.after);
  if (!Number.isInteger(after) || after < 1 || after > flow.version) {
    if (query.after !== undefined) throw invalid("invalid_cursor", "`after` is not a version of this flow.", "after");
  }
  const rows = await database.prisma.flowVersion.findMany({
    where: { workspaceId, flowId, version: { gt: after } },
    orderBy: { version: "asc" },
    take: query.limit + 1,
  });
  const items = rows.slice(0, query.limit).map((v) => ({
    version: v.version,
    created_at: v.createdAt.toISOString(),
    current: v.version === flow.version,
    document: flowDocument(flow, { ...v, quiet_hours: v.quietHours }),
  }));
  let link: string | null = null;
  if (rows.length > query.limit) {
    const next = new URL(url);
    next.searchParams.set("limit", String(query.limit));
    next.searchParams.set("after", String(items[items.length - 1]!.version));
    link = `<${next.toString()}>; rel="next"`;
  }
  return { items, link };
}
