import { z } from "zod";
import type { Database } from "../db/client.ts";
import { hashPassword } from "../lib/crypto.ts";
import { newId } from "../lib/ids.ts";

export const ZCreateUserRequest = z.object({
  email: z.email().trim().toLowerCase(),
  password: z.string().min(8).max(200),
  role: z.enum(["admin", "support"]),
  name: z.string().trim().max(100).optional(),
});

/**
 * Creates the user, or adds a membership to an existing user with that e-mail (a person can
 * belong to several workspaces). The password of an existing user is left as it is.
 */
export async function createUser(database: Database, workspaceId: string, request: z.input<typeof ZCreateUserRequest>) {
  const input = ZCreateUserRequest.parse(request);
  const passwordHash = await hashPassword(input.password);
  return database.prisma.$transaction(async (tx) => {
    const existing = await tx.user.findUnique({ where: { email: input.email }, select: { id: true } });
    const user =
      existing ??
      (await tx.user.create({
        data: { id: newId("user"), email: input.email, name: input.name ?? null, passwordHash },
        select: { id: true },
      }));
    await tx.membership.upsert({
      where: { userId_workspaceId: { userId: user.id, workspaceId } },
      create: { userId: user.id, workspaceId, role: input.role },
      update: { role: input.role },
    });
    return { id: user.id };
  });
}
