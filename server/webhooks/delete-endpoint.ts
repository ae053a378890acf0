import type { Database } from "../db/client.ts";
import { notFound } from "../lib/errors.ts";

/**
 * Deletes an endpoint with its secrets and delivery log. Its jobs still in the outbox find no
 * endpoint and end without a request.
 */
export async function deleteEndpoint(database: Database, workspaceId: string, endpointId: string): Promise<{ deleted: true }> {
  const { count } = await database.prisma.webhookEndpoint.deleteMany({ where: { id: endpointId, workspaceId } });
  if (count === 0) throw notFound("webhook endpoint", "endpoint_id");
  return { deleted: true };
}
