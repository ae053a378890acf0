import { z } from "zod";
import { disconnectChannel as disconnect } from "../../../channels/disconnect-channel.ts";
import { workspaceProcedure } from "../../trpc.ts";

export const disconnectChannel = workspaceProcedure
  .meta({ roles: ["admin"] })
  .input(z.object({ channel_id: z.string().min(1).max(64) }))
  .mutation(({ ctx, input }) => disconnect(ctx.db, ctx.caller.workspaceId, input.channel_id, ctx.caller));
