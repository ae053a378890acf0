import type { Database } from "../db/client.ts";
import { listPage, PAGE_ORDER, type PageQuery } from "../lib/pagination.ts";
import { flowView } from "./flow-views.ts";

/** GET /flows: active flows only (D6), in D10's order and pages. */
export async function listActiveFlows(database: Database, workspaceId: string, query: PageQuery, url: string) {
  const { items, link } = await listPage(
    query,
    url,
    (id) => database.prisma.flow.findFirst({ where: { id, workspaceId, status: "active" }, select: { id: true, createdAt: true } }),
    (where, take) =>
      database.prisma.flow.findMany({
        where: { workspaceId, status: "active", ...where },
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
  // By flow id, so the counts are an index-only scan of these flows' runs (flow_id, status, …),
  // never a pass over every workspace's runs (docs/messages.md "Growth").
  const counts = await database.prisma.flowRun.groupBy({
    by: ["flowId", "status"],
    where: { flowId: { in: flows.map((f) => f.id) } },
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
