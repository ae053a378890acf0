import { replayFailed as replay } from "../../../webhooks/replay-deliveries.ts";
import { ZReplayRangeRequest } from "../../../webhooks/webhook-schemas.ts";
import { workspaceProcedure } from "../../trpc.ts";

export const replayFailed = workspaceProcedure
  .meta({ roles: ["admin"] })
  .input(ZReplayRangeRequest)
  .mutation(({ ctx, input }) => replay(ctx.db, ctx.caller.workspaceId, input));
