import type { Database } from "../db/client.ts";
import { notFound } from "../lib/errors.ts";
import { checkEndpointUrl } from "./endpoint-url.ts";
import { ENDPOINT_SELECT, endpointView, ZUpdateEndpointRequest, type UpdateEndpointRequest } from "./webhook-schemas.ts";

/**
 * Changes an endpoint's URL, events, description or enabled flag. Disabling stops deliveries
 * at once: no new ones are created, and pending ones end as `failed` without a request.
 * Enabling clears the failure streak that may have disabled it (D33).
 */
export async function updateEndpoint(database: Database, workspaceId: string, request: UpdateEndpointRequest) {
  const input = ZUpdateEndpointRequest.parse(request);
  const url = input.url === undefined ? undefined : await checkEndpointUrl(input.url);
  const now = new Date();
  const updated = await database.prisma.webhookEndpoint.updateManyAndReturn({
    where: { id: input.endpoint_id, workspaceId },
    data: {
      url,
      events: input.events ? [...new Set(input.events)] : undefined,
      description: input.description === undefined ? undefined : input.description || null,
      ...(input.enabled === true ? { enabled: true, disabledReason: null, disabledAt: null, failingSince: null } : {}),
      ...(input.enabled === false ? { enabled: false, disabledReason: "manual", disabledAt: now } : {}),
      updatedAt: now,
    },
    select: { id: true },
  });
  if (updated.length === 0) throw notFound("webhook endpoint", "endpoint_id");
  const row = await database.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: input.endpoint_id }, select: ENDPOINT_SELECT });
  return endpointView(row);
}
