import type { Database } from "../db/client.ts";
import { ENDPOINT_SELECT, endpointView } from "./webhook-schemas.ts";

/** A workspace's endpoints, newest first, each with its delivery counts of the last 24 hours. */
export async function listEndpoints(database: Database, workspaceId: string) {
  const rows = await database.prisma.webhookEndpoint.findMany({
    where: { workspaceId },
    select: ENDPOINT_SELECT,
    orderBy: { createdAt: "desc" },
  });
  const since = new Date(Date.now() - 24 * 60 * 60_000);
  // By endpoint id: the (endpoint_id, status, created_at) index answers it alone, instead of a
  // day of every workspace's deliveries (docs/messages.md "Growth").
  const counts = await database.prisma.webhookDelivery.groupBy({
    by: ["endpointId", "status"],
    where: { endpointId: { in: rows.map((r) => r.id) }, createdAt: { gte: since } },
    _count: { _all: true },
  });
  return rows.map((row) => {
    const mine = counts.filter((c) => c.endpointId === row.id);
    const count = (status: string) => mine.find((c) => c.status === status)?._count._all ?? 0;
    return { ...endpointView(row), last_24h: { succeeded: count("succeeded"), failed: count("failed"), pending: count("pending") } };
  });
}
