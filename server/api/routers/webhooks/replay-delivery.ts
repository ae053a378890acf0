import { replayDelivery as replay } from "../../../webhooks/replay-deliveries.ts";
import { ZDeliveryId } from "../../../webhooks/webhook-schemas.ts";
import { workspaceProcedure } from "../../trpc.ts";

export const replayDelivery = workspaceProcedure
  .meta({ roles: ["admin"] })
  .input(ZDeliveryId)
  .mutation(({ ctx, input }) => replay(ctx.db, ctx.caller.workspaceId, input));
