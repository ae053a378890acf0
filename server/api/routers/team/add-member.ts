import { z } from "zod";
import { createUser, ROLES } from "../../../users/create-user.ts";
import { workspaceProcedure } from "../../trpc.ts";

/**
 * Adds a new account (its one-time password is in this answer and nowhere else) or an existing
 * account by e-mail. A member already in the workspace is refused: roles change on their own.
 */
export const addMember = workspaceProcedure
  .meta({ roles: ["admin"] })
  .input(z.object({ email: z.string().max(320), role: z.enum(ROLES), name: z.string().max(100).optional() }))
  .mutation(({ ctx, input }) => createUser(ctx.db, ctx.caller.workspaceId, input, ctx.caller, { ifMember: "refuse" }));
