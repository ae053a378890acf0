import type { Database } from "../db/client.ts";
import { listPage, PAGE_ORDER, type PageQuery } from "../lib/pagination.ts";
import type { FlowStatus } from "./flow-schemas.ts";
import { flowView } from "./flow-views.ts";

/** GET /flows: the flows of one status (`active` by default, D6, D98), in D10's order and pages. */
export async function listFlowPage(database: Database, workspaceId: string, query: PageQuery & { status: FlowStatus }, url: string) {
  const { status } = query;
  const { items, link } = await listPage(
    query,
    url,
    (id) => database.prisma.flow.findFirst({ where: { id, workspaceId, status }, select: { id: true, createdAt: true } }),
    (where, take) =>
      database.prisma.flow.findMany({
        where: { workspaceId, status, ...where },
        orderBy: PAGE_ORDER,
        take,
        select: { id: true, name: true, status: true, createdAt: true },
      }),
  );
  return { items: items.map(flowView), link };
}

/** The dashboard's list: every flow, newest first, with its runs counted by status. */
export async function listFlows(database: Database, workspaceId: string) {
  const flows = await database.prisma.flow.findMany({
    where: { workspaceId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: { id: true, name: true, status: true, version: true, allowReentry: true, createdAt: true, updatedAt: true },
  });
  // By flow id, so the counts are an index-only scan of these flows' runs (workspace_id, flow_id, status, …),
  // never a pass over every workspace's runs (docs/messages.md "Growth").
  const counts = await database.prisma.flowRun.groupBy({
    by: ["flowId", "status"],
    where: { workspaceId, flowId: { in: flows.map((f) => f.id) } },
    _count: { _all: true },
  });
  return flows.map((f) => {
    const count = (status: string) => counts.find((c) => c.flowId === f.id && c.status === status)?._count._all ?? 0;
    return {
      ...flowView(f),
      version: f.version,
      allow_reentry: f.allowReentry,
      updated_at: f.updatedAt.toISOString(),
      runs: { active: count("active"), completed: count("completed"), stopped: count("stopped"), failed: count("failed") },
    };
  });
}
