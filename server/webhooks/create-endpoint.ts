import type { Caller } from "../lib/caller.ts";
import { recordAudit, urlForAudit } from "../audit/record-audit.ts";
import { prismaHandle } from "../db/prisma-handle.ts";
import type { Database } from "../db/client.ts";
import { conflict } from "../lib/errors.ts";
import { newId } from "../lib/ids.ts";
import { checkEndpointUrl } from "./endpoint-url.ts";
import { generateSecret, sealSecret } from "./endpoint-secret.ts";
import { ENDPOINT_SELECT, endpointView, ZCreateEndpointRequest, type CreateEndpointRequest } from "./webhook-schemas.ts";

/**
 * D99: the most endpoints a workspace holds, so that every event fans out to a bounded number
 * of deliveries and every list of endpoints is one page.
 */
export const MAX_ENDPOINTS = 50;

/**
 * Registers an endpoint (D30). The secret is in this answer and nowhere else, ever. The 51st of
 * a workspace is refused (D99: `409 limit_reached`); the workspace's row is held while counting,
 * so two registrations at once cannot both take the last place.
 */
export async function createEndpoint(database: Database, workspaceId: string, request: CreateEndpointRequest, actor: Caller) {
  const input = ZCreateEndpointRequest.parse(request);
  const url = await checkEndpointUrl(input.url);
  const secret = generateSecret();
  const events = [...new Set(input.events ?? [])];
  const row = await database.prisma.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM workspaces WHERE id = ${workspaceId} FOR NO KEY UPDATE`;
    if ((await tx.webhookEndpoint.count({ where: { workspaceId } })) >= MAX_ENDPOINTS) {
      throw conflict(
        "limit_reached",
        `This workspace already has ${MAX_ENDPOINTS} webhook endpoints, the most it may hold. Delete one before adding another.`,
      );
    }
    const created = await tx.webhookEndpoint.create({
      data: {
        id: newId("webhook"),
        workspaceId,
        url,
        description: input.description || null,
        events,
        secrets: { create: { secret: sealSecret(secret) } },
      },
      select: ENDPOINT_SELECT,
    });
    await recordAudit(prismaHandle(tx), actor, {
      workspaceId,
      action: "webhook.created",
      target: { type: "webhook", id: created.id },
      detail: { url: urlForAudit(url), events },
    });
    return created;
  });
  return { id: row.id, secret, endpoint: endpointView(row) };
}
