import { z } from "zod";
import { configurationProblems } from "../../../overview/configuration-problems.ts";
import { workspaceOverview } from "../../../overview/workspace-overview.ts";
import { router, workspaceProcedure } from "../../trpc.ts";

/** Dashboard only: the workspace's home page (volume, outcomes, what needs attention, first steps). */
export const overviewRouter = router({
  get: workspaceProcedure.input(z.void()).query(({ ctx }) => workspaceOverview(ctx.db, ctx.caller.workspaceId)),
  /** Channels and endpoints whose stored credentials this server cannot open (every page's banner). */
  problems: workspaceProcedure.input(z.void()).query(({ ctx }) => configurationProblems(ctx.db, ctx.caller.workspaceId)),
});
