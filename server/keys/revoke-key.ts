import type { Caller } from "../lib/caller.ts";
import { recordAudit } from "../audit/record-audit.ts";
import { prismaHandle } from "../db/prisma-handle.ts";
import type { Database } from "../db/client.ts";
import { notFound } from "../lib/errors.ts";

/** Revocation is a row update, so it takes effect at once on every instance (D21). */
export async function revokeKey(database: Database, workspaceId: string, id: string, actor: Caller): Promise<{ revoked: true }> {
  await database.prisma.$transaction(async (tx) => {
    // The enum column is read apart from the write (D87: Citus refuses its text cast in RETURNING);
    // only the statement that revoked records it.
    const key = await tx.apiKey.findFirst({ where: { id, workspaceId, revokedAt: null }, select: { name: true, mode: true } });
    const { count } = await tx.apiKey.updateMany({ where: { id, workspaceId, revokedAt: null }, data: { revokedAt: new Date() } });
    const revoked = count === 1 ? key : null;
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
