import { z } from "zod";
import { userProcedure } from "../../trpc.ts";

/** The workspaces the signed-in user belongs to, for the workspace switcher. */
export const listMyWorkspaces = userProcedure.input(z.void()).query(async ({ ctx }) => {
  const rows = await ctx.db.prisma.membership.findMany({
    where: { userId: ctx.user.userId },
    orderBy: { createdAt: "asc" },
    select: { role: true, workspace: { select: { id: true, name: true, plan: true } } },
  });
  return rows.map((m) => ({ ...m.workspace, role: m.role }));
});
