import { z } from "zod";
import type { Caller } from "../lib/caller.ts";
import { recordAudit } from "../audit/record-audit.ts";
import { prismaHandle } from "../db/prisma-handle.ts";
import type { Database } from "../db/client.ts";
import { hashPassword } from "../lib/crypto.ts";
import { conflict } from "../lib/errors.ts";
import { newId, randomBase62 } from "../lib/ids.ts";
import { assertAdminRemains } from "./last-admin.ts";

export const ROLES = ["admin", "support"] as const;
export type Role = (typeof ROLES)[number];

export const ZCreateUserRequest = z.object({
  email: z.email().trim().toLowerCase(),
  /** Absent: a new account gets a generated password, answered once. */
  password: z.string().min(8).max(200).optional(),
  role: z.enum(ROLES),
  name: z.string().trim().max(100).optional(),
});

/** A one-time password for a new account or a reset, shown to the admin once. */
export const generatePassword = () => randomBase62(16);

/**
 * Adds a member to the workspace (`svc user create`, the Team page): a new account, or an
 * existing account (a person can belong to several workspaces), whose password is left as it
 * is. A member already in the workspace gets the role asked for (`svc user create`), or, with
 * `ifMember: "refuse"` (the Team page, which changes roles on its own), a 409. Demoting the
 * last admin is refused. One audit entry when something changed.
 */
export async function createUser(
  database: Database,
  workspaceId: string,
  request: z.input<typeof ZCreateUserRequest>,
  actor: Caller,
  opts: { ifMember?: "update_role" | "refuse" } = {},
): Promise<{ id: string; created: boolean; password: string | null }> {
  const input = ZCreateUserRequest.parse(request);
  const generated = input.password === undefined ? generatePassword() : null;
  const passwordHash = await hashPassword(input.password ?? generated!);
  return database.prisma.$transaction(async (tx) => {
    const existing = await tx.user.findUnique({ where: { email: input.email }, select: { id: true } });
    const user =
      existing ??
      (await tx.user.create({
        data: { id: newId("user"), email: input.email, name: input.name || null, passwordHash },
        select: { id: true },
      }));
    const target = { type: "user", id: user.id } as const;
    const membership = existing
      ? await tx.membership.findUnique({ where: { workspaceId_userId: { workspaceId, userId: user.id } }, select: { role: true } })
      : null;
    if (membership && opts.ifMember === "refuse") {
      throw conflict("already_member", `${input.email} is already a member of this workspace.`, "email");
    }
    if (!membership) {
      // D87: what a write returns leaves out its enum columns (Citus refuses their text cast in RETURNING).
      await tx.membership.create({ data: { userId: user.id, workspaceId, role: input.role }, select: { userId: true } });
      await recordAudit(prismaHandle(tx), actor, {
        workspaceId,
        action: "team.member_added",
        target,
        detail: { email: input.email, role: input.role, new_account: !existing },
      });
    } else if (membership.role !== input.role) {
      if (input.role !== "admin") await assertAdminRemains(tx, workspaceId, user.id, "role");
      await tx.membership.update({
        where: { workspaceId_userId: { workspaceId, userId: user.id } },
        data: { role: input.role },
        select: { userId: true },
      });
      await recordAudit(prismaHandle(tx), actor, {
        workspaceId,
        action: "team.role_changed",
        target,
        detail: { email: input.email, from: membership.role, to: input.role },
      });
    }
    return { id: user.id, created: !existing, password: existing ? null : generated };
  });
}
