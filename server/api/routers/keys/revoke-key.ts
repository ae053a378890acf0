import { z } from "zod";
import { revokeKey as revoke } from "../../../keys/revoke-key.ts";
import { workspaceProcedure } from "../../trpc.ts";

export const revokeKey = workspaceProcedure
  .meta({ roles: ["admin"] })
  .input(z.object({ id: z.string().min(1) }))
  .mutation(({ ctx, input }) => revoke(ctx.db, ctx.caller.workspaceId, input.id, ctx.caller));
