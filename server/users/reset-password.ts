import { z } from "zod";
import type { Caller } from "../lib/caller.ts";
import { recordAudit } from "../audit/record-audit.ts";
import { prismaHandle } from "../db/prisma-handle.ts";
import type { Database } from "../db/client.ts";
import { hashPassword } from "../lib/crypto.ts";
import { notFound } from "../lib/errors.ts";
import { generatePassword, ZCreateUserRequest } from "./create-user.ts";

const ZResetPasswordRequest = z.object({
  email: ZCreateUserRequest.shape.email,
  password: ZCreateUserRequest.shape.password,
});

/**
 * Sets a new password for a member of the workspace (`svc user reset-password`, the Team
 * page): the given one, or a generated one, which is answered so it can be shown once. The
 * member's dashboard sessions end, so only the new password opens the dashboard.
 */
export async function resetPassword(
  database: Database,
  workspaceId: string,
  request: z.input<typeof ZResetPasswordRequest>,
  actor: Caller,
): Promise<{ id: string; password: string; generated: boolean }> {
  const input = ZResetPasswordRequest.parse(request);
  const password = input.password ?? generatePassword();
  const passwordHash = await hashPassword(password);
  const id = await database.prisma.$transaction(async (tx) => {
    const user = await tx.user.findFirst({
      where: { email: input.email, memberships: { some: { workspaceId } } },
      select: { id: true },
    });
    if (!user) throw notFound("user with this e-mail in the workspace", "email");
    await tx.user.update({ where: { id: user.id }, data: { passwordHash } });
    await tx.dashboardSession.updateMany({ where: { userId: user.id, revokedAt: null }, data: { revokedAt: new Date() } });
    await recordAudit(prismaHandle(tx), actor, {
      workspaceId,
      action: "team.password_reset",
      target: { type: "user", id: user.id },
      detail: { email: input.email },
    });
    return user.id;
  });
  return { id, password, generated: input.password === undefined };
}
