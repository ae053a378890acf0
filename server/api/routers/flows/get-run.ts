import { z } from "zod";
import { getRun as get } from "../../../flows/list-runs.ts";
import { workspaceProcedure } from "../../trpc.ts";

export const getRun = workspaceProcedure
  .input(z.object({ run_id: z.string().min(1).max(64) }))
  .query(({ ctx, input }) => get(ctx.db, ctx.caller.workspaceId, input.run_id));
