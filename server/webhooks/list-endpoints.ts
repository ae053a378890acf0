import type { Database } from "../db/client.ts";
import { listPage, NEWEST_FIRST, type PageQuery } from "../lib/pagination.ts";
import { ENDPOINT_SELECT, endpointView } from "./webhook-schemas.ts";

/**
 * A workspace's endpoints (at most MAX_ENDPOINTS, so the dashboard shows them all on one page),
 * newest first, each with its delivery counts of the last 24 hours.
 */
export async function listEndpoints(database: Database, workspaceId: string) {
  const rows = await database.prisma.webhookEndpoint.findMany({
    where: { workspaceId },
    select: ENDPOINT_SELECT,
    orderBy: { createdAt: "desc" },
  });
  const since = new Date(Date.now() - 24 * 60 * 60_000);
  // By endpoint id: a day of the endpoint's deliveries on (workspace_id, endpoint_id, created_at, id), each
  // row's status read from the table (no index holds it, so a delivery's success stays a HOT update),
  // instead of a day of every workspace's deliveries (docs/messages.md "Growth").
  const counts = await database.prisma.webhookDelivery.groupBy({
    by: ["endpointId", "status"],
    where: { workspaceId, endpointId: { in: rows.map((r) => r.id) }, createdAt: { gte: since } },
    _count: { _all: true },
  });
  return rows.map((row) => {
    const mine = counts.filter((c) => c.endpointId === row.id);
    const count = (status: string) => mine.find((c) => c.status === status)?._count._all ?? 0;
    return { ...endpointView(row), last_24h: { succeeded: count("succeeded"), failed: count("failed"), pending: count("pending") } };
  });
}

/**
 * GET /webhook-endpoints (D77, D99): one page of the workspace's endpoints, newest first
 * (`created_at` then `id`, descending), with D10's `limit` and `after` and a `Link` to the
 * next page. A workspace holds at most MAX_ENDPOINTS, so the default page holds them all.
 */
export async function listEndpointPage(database: Database, workspaceId: string, query: PageQuery, url: string) {
  const { items, link } = await listPage(
    query,
    url,
    (id) => database.prisma.webhookEndpoint.findFirst({ where: { id, workspaceId }, select: { id: true, createdAt: true } }),
    (after, take) =>
      database.prisma.webhookEndpoint.findMany({
        where: { AND: [{ workspaceId }, after] },
        select: ENDPOINT_SELECT,
        orderBy: NEWEST_FIRST,
        take,
      }),
    "desc",
  );
  return { items: items.map((row) => endpointView(row)), link };
}
