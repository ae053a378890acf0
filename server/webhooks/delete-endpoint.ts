import type { Caller } from "../lib/caller.ts";
import { recordAudit, urlForAudit } from "../audit/record-audit.ts";
import { prismaHandle } from "../db/prisma-handle.ts";
import type { Database } from "../db/client.ts";
import { notFound } from "../lib/errors.ts";

/**
 * Deletes an endpoint with its secrets and delivery log. Its jobs still in the outbox find no
 * endpoint and end without a request.
 */
export async function deleteEndpoint(
  database: Database,
  workspaceId: string,
  endpointId: string,
  actor: Caller,
): Promise<{ deleted: true }> {
  await database.prisma.$transaction(async (tx) => {
    const endpoint = await tx.webhookEndpoint.findFirst({ where: { id: endpointId, workspaceId }, select: { url: true } });
    if (!endpoint) throw notFound("webhook endpoint", "endpoint_id");
    await tx.webhookEndpoint.delete({ where: { workspaceId_id: { workspaceId, id: endpointId } } });
    await recordAudit(prismaHandle(tx), actor, {
      workspaceId,
      action: "webhook.deleted",
      target: { type: "webhook", id: endpointId },
      detail: { url: urlForAudit(endpoint.url) },
    });
  });
  return { deleted: true };
}
