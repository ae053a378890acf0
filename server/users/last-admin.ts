import type { Prisma } from "../generated/prisma/client.ts";
import { conflict } from "../lib/errors.ts";

/**
 * Refuses a change that would leave the workspace without an admin (`userId` losing the admin
 * role or leaving). Locks the workspace's admin memberships until the transaction ends, so two
 * admins demoting each other at once cannot both succeed.
 */
export async function assertAdminRemains(tx: Prisma.TransactionClient, workspaceId: string, userId: string, param: string) {
  const admins = await tx.$queryRaw<{ user_id: string }[]>`
    SELECT user_id FROM memberships WHERE workspace_id = ${workspaceId} AND role = 'admin' FOR UPDATE`;
  if (admins.some((a) => a.user_id === userId) && admins.length <= 1) {
    throw conflict("last_admin", "This is the workspace's last admin. Make another member an admin first.", param);
  }
}
