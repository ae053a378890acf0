import { z } from "zod";
import { stepCounts as counts } from "../../../flows/step-counts.ts";
import { workspaceProcedure } from "../../trpc.ts";

/** Dashboard only: per step of a flow's current version, the runs that passed, wait there, or left there. */
export const stepCounts = workspaceProcedure
  .input(z.object({ flow_id: z.string().min(1).max(64) }))
  .query(({ ctx, input }) => counts(ctx.db, ctx.caller.workspaceId, input.flow_id));
