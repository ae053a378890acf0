import { z } from "zod";
import { workspaceOverview } from "../../../overview/workspace-overview.ts";
import { router, workspaceProcedure } from "../../trpc.ts";

/** Dashboard only: the workspace's home page (volume, outcomes, what needs attention, first steps). */
export const overviewRouter = router({
  get: workspaceProcedure.input(z.void()).query(({ ctx }) => workspaceOverview(ctx.db, ctx.actor.workspaceId)),
});
