import type { Caller } from "../lib/caller.ts";
import { recordAudit, urlForAudit } from "../audit/record-audit.ts";
import { prismaHandle } from "../db/prisma-handle.ts";
import type { Database } from "../db/client.ts";
import { notFound } from "../lib/errors.ts";
import { generateSecret, ROTATION_OVERLAP_MS, sealSecret } from "./endpoint-secret.ts";

/**
 * D32: a new secret becomes current; the one it replaces stays valid for 24 hours, and until
 * then deliveries carry one `v1=` per valid secret. Secrets already rotated out keep their
 * own expiry. The new secret is in this answer and nowhere else.
 */
export async function rotateSecret(database: Database, workspaceId: string, endpointId: string, actor: Caller) {
  const secret = generateSecret();
  const now = new Date();
  await database.prisma.$transaction(async (tx) => {
    const endpoint = await tx.webhookEndpoint.findFirst({ where: { id: endpointId, workspaceId }, select: { url: true } });
    if (!endpoint) throw notFound("webhook endpoint", "endpoint_id");
    await tx.webhookSecret.updateMany({
      where: { workspaceId, endpointId, expiresAt: null },
      data: { expiresAt: new Date(now.getTime() + ROTATION_OVERLAP_MS) },
    });
    await tx.webhookSecret.deleteMany({ where: { workspaceId, endpointId, expiresAt: { lte: now } } });
    await tx.webhookSecret.create({ data: { workspaceId, endpointId, secret: sealSecret(secret), createdAt: now } });
    await recordAudit(prismaHandle(tx), actor, {
      workspaceId,
      action: "webhook.secret_rotated",
      target: { type: "webhook", id: endpointId },
      detail: { url: urlForAudit(endpoint.url) },
    });
  });
  return { secret, previous_expires_at: new Date(now.getTime() + ROTATION_OVERLAP_MS).toISOString() };
}
