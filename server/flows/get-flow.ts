import type { Database } from "../db/client.ts";
import { notFound } from "../lib/errors.ts";
import { flowWithDocument } from "./flow-views.ts";

/** One flow for the dashboard: its current D37 document (the editor's and the export's). */
export async function getFlow(database: Database, workspaceId: string, flowId: string) {
  const flow = await database.prisma.flow.findFirst({
    where: { id: flowId, workspaceId },
    select: { id: true, name: true, status: true, version: true, allowReentry: true, createdAt: true, updatedAt: true },
  });
  if (!flow) throw notFound("flow", "flow_id");
  const version = await database.prisma.flowVersion.findUniqueOrThrow({
    where: { workspaceId_flowId_version: { workspaceId, flowId, version: flow.version } },
    select: { steps: true, trigger: true, goal: true, quietHours: true, caps: true },
  });
  const { document, ...rest } = flowWithDocument(flow, { ...version, quiet_hours: version.quietHours });
  return { ...rest, definition: document };
}
