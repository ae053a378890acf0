import { z } from "zod";
import { flowStats as stats } from "../../../flows/flow-stats.ts";
import { workspaceProcedure } from "../../trpc.ts";
import { ZFlowStatsRequest } from "./flow-stats.types.ts";

/**
 * Dashboard only: a flow's statistics (GET /flows/{flow_id}/stats, D69) in the mode of the top
 * bar's test/live switch; the API answers in its key's mode, a dashboard user has none. The
 * flow page's canvas, outline and statistics table read it.
 */
export const modeStats = workspaceProcedure
  .input(ZFlowStatsRequest.extend({ mode: z.enum(["live", "test"]) }))
  .query(({ ctx, input }) => stats(ctx.db, { workspaceId: ctx.caller.workspaceId, mode: input.mode }, input.flow_id));
