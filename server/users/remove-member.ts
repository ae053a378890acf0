import type { Caller } from "../lib/caller.ts";
import { recordAudit } from "../audit/record-audit.ts";
import { prismaHandle } from "../db/prisma-handle.ts";
import type { Database } from "../db/client.ts";
import { notFound } from "../lib/errors.ts";
import { assertAdminRemains } from "./last-admin.ts";

/**
 * Takes a member out of the workspace; the last admin cannot leave. The account stays (it may
 * belong to other workspaces); its next request to this workspace is refused.
 */
export async function removeMember(database: Database, workspaceId: string, userId: string, actor: Caller) {
  await database.prisma.$transaction(async (tx) => {
    const membership = await tx.membership.findUnique({
      where: { workspaceId_userId: { workspaceId, userId } },
      select: { role: true, user: { select: { email: true } } },
    });
    if (!membership) throw notFound("member of this workspace", "user_id");
    await assertAdminRemains(tx, workspaceId, userId, "user_id");
    await tx.membership.delete({ where: { workspaceId_userId: { workspaceId, userId } }, select: { userId: true } });
    await recordAudit(prismaHandle(tx), actor, {
      workspaceId,
      action: "team.member_removed",
      target: { type: "user", id: userId },
      detail: { email: membership.user.email, role: membership.role },
    });
  });
  return { removed: true as const };
}
