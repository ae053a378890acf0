import type { Caller } from "../lib/caller.ts";
import { recordAudit, urlForAudit } from "../audit/record-audit.ts";
import { prismaHandle } from "../db/prisma-handle.ts";
import type { Database } from "../db/client.ts";
import { newId } from "../lib/ids.ts";
import { checkEndpointUrl } from "./endpoint-url.ts";
import { generateSecret, sealSecret } from "./endpoint-secret.ts";
import { ENDPOINT_SELECT, endpointView, ZCreateEndpointRequest, type CreateEndpointRequest } from "./webhook-schemas.ts";

/** Registers an endpoint (D30). The secret is in this answer and nowhere else, ever. */
export async function createEndpoint(database: Database, workspaceId: string, request: CreateEndpointRequest, actor: Caller) {
  const input = ZCreateEndpointRequest.parse(request);
  const url = await checkEndpointUrl(input.url);
  const secret = generateSecret();
  const events = [...new Set(input.events ?? [])];
  const row = await database.prisma.$transaction(async (tx) => {
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
