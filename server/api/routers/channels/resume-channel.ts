import { z } from "zod";
import { resumeChannel as resume } from "../../../channels/channel-pause.ts";
import { workspaceProcedure } from "../../trpc.ts";

// D90, D93: the dashboard's Resume on a paused channel's banner (`svc channel resume` does the same).
export const resumeChannel = workspaceProcedure
  .meta({ roles: ["admin"] })
  .input(z.object({ channel_id: z.string().min(1).max(64) }))
  .mutation(({ ctx, input }) => ctx.db.transaction((sql) => resume(sql, ctx.caller.workspaceId, input.channel_id, ctx.caller)));
