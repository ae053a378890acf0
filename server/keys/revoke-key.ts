import type { Caller } from "../lib/caller.ts";
import { recordAudit } from "../audit/record-audit.ts";
import { prismaHandle } from "../db/prisma-handle.ts";
import type { Database } from "../db/client.ts";
import { notFound } from "../lib/errors.ts";

/** Revocation is a row update, so it takes effect at once on every instance (D21). */
export async function revokeKey(database: Database, workspaceId: string, id: string, actor: Caller): Promise<{ revoked: true }> {
  await database.prisma.$transaction(async (tx) => {
    const [revoked] = await tx.apiKey.updateManyAndReturn({
      where: { id, workspaceId, revokedAt: null },
      data: { revokedAt: new Date() },
      select: { name: true, mode: true },
    });
    if (revoked) {
      await recordAudit(prismaHandle(tx), actor, {
        workspaceId,
        action: "api_key.revoked",
        target: { type: "api_key", id },
        detail: revoked,
      });
    } else if (!(await tx.apiKey.count({ where: { id, workspaceId } }))) {
      throw notFound("API key", "id");
    }
  });
  return { revoked: true };
}
