import { z } from "zod";
import { changeRole as change } from "../../../users/change-role.ts";
import { ROLES } from "../../../users/create-user.ts";
import { workspaceProcedure } from "../../trpc.ts";

export const changeRole = workspaceProcedure
  .meta({ roles: ["admin"] })
  .input(z.object({ user_id: z.string().min(1).max(64), role: z.enum(ROLES) }))
  .mutation(({ ctx, input }) => change(ctx.db, ctx.caller.workspaceId, input.user_id, input.role, ctx.caller));
