import { z } from "zod";
import { getFlow as get } from "../../../flows/get-flow.ts";
import { workspaceProcedure } from "../../trpc.ts";

/** Dashboard only: a flow with its current D37 document. */
export const getFlow = workspaceProcedure
  .input(z.object({ flow_id: z.string().min(1).max(64) }))
  .query(({ ctx, input }) => get(ctx.db, ctx.caller.workspaceId, input.flow_id));
