import { z } from "zod";
import { FLOW_STATUSES } from "../../../flows/flow-schemas.ts";
import { setFlowStatus as set } from "../../../flows/set-flow-status.ts";
import { workspaceProcedure } from "../../trpc.ts";

export const setFlowStatus = workspaceProcedure
  .meta({ roles: ["admin"] })
  .input(z.object({ flow_id: z.string().min(1).max(64), status: z.enum(FLOW_STATUSES) }))
  .mutation(({ ctx, input }) => set(ctx.db, ctx.caller.workspaceId, input.flow_id, input.status, ctx.caller));
