import { z } from "zod";
import { resetPassword as reset } from "../../../users/reset-password.ts";
import { workspaceProcedure } from "../../trpc.ts";

/** A generated password, in this answer and nowhere else; the member's sessions end. */
export const resetPassword = workspaceProcedure
  .meta({ roles: ["admin"] })
  .input(z.object({ email: z.string().max(320) }))
  .mutation(async ({ ctx, input }) => {
    const { id, password } = await reset(ctx.db, ctx.caller.workspaceId, { email: input.email }, ctx.caller);
    return { user_id: id, password };
  });
