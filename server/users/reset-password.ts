import { z } from "zod";
import type { Database } from "../db/client.ts";
import { hashPassword } from "../lib/crypto.ts";
import { notFound } from "../lib/errors.ts";
import { randomBase62 } from "../lib/ids.ts";
import { ZCreateUserRequest } from "./create-user.ts";

const ZResetPasswordRequest = z.object({
  email: ZCreateUserRequest.shape.email,
  password: ZCreateUserRequest.shape.password.optional(),
});

/**
 * Sets a new password for a member of the workspace (`svc user reset-password`): the given one,
 * or a generated one, which is answered so it can be shown once.
 */
export async function resetPassword(
  database: Database,
  workspaceId: string,
  request: z.input<typeof ZResetPasswordRequest>,
): Promise<{ id: string; password: string; generated: boolean }> {
  const input = ZResetPasswordRequest.parse(request);
  const password = input.password ?? randomBase62(16);
  const user = await database.prisma.user.findFirst({
    where: { email: input.email, memberships: { some: { workspaceId } } },
    select: { id: true },
  });
  if (!user) throw notFound("user with this e-mail in the workspace", "email");
  await database.prisma.user.update({ where: { id: user.id }, data: { passwordHash: await hashPassword(password) } });
  return { id: user.id, password, generated: input.password === undefined };
}
