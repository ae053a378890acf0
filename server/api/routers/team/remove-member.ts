import { z } from "zod";
import { removeMember as remove } from "../../../users/remove-member.ts";
import { workspaceProcedure } from "../../trpc.ts";

export const removeMember = workspaceProcedure
  .meta({ roles: ["admin"] })
  .input(z.object({ user_id: z.string().min(1).max(64) }))
  .mutation(({ ctx, input }) => remove(ctx.db, ctx.caller.workspaceId, input.user_id, ctx.caller));
