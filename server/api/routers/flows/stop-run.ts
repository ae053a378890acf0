import { z } from "zod";
import { stopRun as stop } from "../../../flows/stop-run.ts";
import { workspaceProcedure } from "../../trpc.ts";

/** Admins only: unenroll one run from the dashboard's run view. */
export const stopRun = workspaceProcedure
  .meta({ roles: ["admin"] })
  .input(z.object({ run_id: z.string().min(1).max(64), reason: z.string().trim().max(500).optional() }))
  .mutation(({ ctx, input }) => stop(ctx.db, ctx.caller.workspaceId, input.run_id, input.reason));
