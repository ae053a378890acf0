import type { Caller } from "../lib/caller.ts";
import { recordAudit, urlForAudit } from "../audit/record-audit.ts";
import { prismaHandle } from "../db/prisma-handle.ts";
import type { Database } from "../db/client.ts";
import { notFound } from "../lib/errors.ts";
import { checkEndpointUrl } from "./endpoint-url.ts";
import { ENDPOINT_SELECT, endpointView, ZUpdateEndpointRequest, type UpdateEndpointRequest } from "./webhook-schemas.ts";

/**
 * Changes an endpoint's URL, events, description or enabled flag. Disabling stops deliveries
 * at once: no new ones are created, and pending ones end as `failed` without a request.
 * Enabling clears the failure streak that may have disabled it (D33).
 */
export async function updateEndpoint(database: Database, workspaceId: string, request: UpdateEndpointRequest, actor: Caller) {
  const input = ZUpdateEndpointRequest.parse(request);
  const url = input.url === undefined ? undefined : await checkEndpointUrl(input.url);
  const events = input.events ? [...new Set(input.events)] : undefined;
  const description = input.description === undefined ? undefined : input.description || null;
  const now = new Date();
  await database.prisma.$transaction(async (tx) => {
    const updated = await tx.webhookEndpoint.updateManyAndReturn({
      where: { id: input.endpoint_id, workspaceId },
      data: {
        url,
        events,
        description,
        ...(input.enabled === true ? { enabled: true, disabledReason: null, disabledAt: null, failingSince: null } : {}),
        ...(input.enabled === false ? { enabled: false, disabledReason: "manual", disabledAt: now } : {}),
        updatedAt: now,
      },
      select: { url: true },
    });
    const [endpoint] = updated;
    if (!endpoint) throw notFound("webhook endpoint", "endpoint_id");
    // What the request changed; the URL is always there to name the endpoint.
    const changed = {
      ...(events !== undefined ? { events } : {}),
      ...(description !== undefined ? { description } : {}),
      ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
    };
    await recordAudit(prismaHandle(tx), actor, {
      workspaceId,
      action: "webhook.updated",
      target: { type: "webhook", id: input.endpoint_id },
      detail: { url: urlForAudit(endpoint.url), ...(url !== undefined ? { url_changed: true } : {}), ...changed },
    });
  });
  const row = await database.prisma.webhookEndpoint.findUniqueOrThrow({
    where: { workspaceId_id: { workspaceId, id: input.endpoint_id } },
    select: ENDPOINT_SELECT,
  });
  return endpointView(row);
}
