import { z } from "zod";
import { RUN_STATUSES } from "../../../flows/flow-schemas.ts";
import { listRuns as list } from "../../../flows/list-runs.ts";
import { workspaceProcedure } from "../../trpc.ts";

export const listRuns = workspaceProcedure
  .input(
    z.object({
      flow_id: z.string().min(1).max(64),
      status: z.enum(RUN_STATUSES).optional(),
      limit: z.number().int().min(1).max(100).default(25),
      after: z.string().min(1).max(64).optional(),
    }),
  )
  .query(({ ctx, input }) => list(ctx.db, ctx.caller.workspaceId, input));
