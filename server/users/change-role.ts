import type { Caller } from "../lib/caller.ts";
import { recordAudit } from "../audit/record-audit.ts";
import { prismaHandle } from "../db/prisma-handle.ts";
import type { Database } from "../db/client.ts";
import { notFound } from "../lib/errors.ts";
import type { Role } from "./create-user.ts";
import { assertAdminRemains } from "./last-admin.ts";

/** Gives a member another role; the last admin cannot be demoted. */
export async function changeRole(database: Database, workspaceId: string, userId: string, role: Role, actor: Caller) {
  await database.prisma.$transaction(async (tx) => {
    const membership = await tx.membership.findUnique({
      where: { workspaceId_userId: { workspaceId, userId } },
      select: { role: true, user: { select: { email: true } } },
    });
    if (!membership) throw notFound("member of this workspace", "user_id");
    if (membership.role === role) return;
    if (role !== "admin") await assertAdminRemains(tx, workspaceId, userId, "role");
    // D87: what a write returns leaves out its enum columns (Citus refuses their text cast in RETURNING).
    await tx.membership.update({ where: { workspaceId_userId: { workspaceId, userId } }, data: { role }, select: { userId: true } });
    await recordAudit(prismaHandle(tx), actor, {
      workspaceId,
      action: "team.role_changed",
      target: { type: "user", id: userId },
      detail: { email: membership.user.email, from: membership.role, to: role },
    });
  });
  return { user_id: userId, role };
}
