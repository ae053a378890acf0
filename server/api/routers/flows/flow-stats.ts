import { flowStats as stats } from "../../../flows/flow-stats.ts";
import { workspaceProcedure } from "../../trpc.ts";
import { flowStatsMeta, ZFlowStatsRequest, ZFlowStatsResponse } from "./flow-stats.types.ts";

export const flowStats = workspaceProcedure
  .meta(flowStatsMeta)
  .input(ZFlowStatsRequest)
  .output(ZFlowStatsResponse)
  .query(({ ctx, input }) => stats(ctx.db, ctx.caller, input.flow_id));
