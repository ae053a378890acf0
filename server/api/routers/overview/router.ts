import { z } from "zod";
import { defaultMode } from "../../../overview/default-mode.ts";
import { configurationProblems } from "../../../overview/configuration-problems.ts";
import { workspaceOverview } from "../../../overview/workspace-overview.ts";
import { router, workspaceProcedure } from "../../trpc.ts";

/** Dashboard only: the workspace's home page (volume, outcomes, what needs attention, first steps). */
export const overviewRouter = router({
  /** `mode`: the top bar's test/live switch; the overview counts that mode's messages. */
  get: workspaceProcedure
    .input(z.object({ mode: z.enum(["live", "test"]) }))
    .query(({ ctx, input }) => workspaceOverview(ctx.db, ctx.caller.workspaceId, input.mode)),
  /** The test/live switch's position for a user who never moved it. */
  defaultMode: workspaceProcedure.input(z.void()).query(({ ctx }) => defaultMode(ctx.db, ctx.caller.workspaceId)),
  /** Channels and endpoints whose stored credentials this server cannot open (every page's banner). */
  problems: workspaceProcedure.input(z.void()).query(({ ctx }) => configurationProblems(ctx.db, ctx.caller.workspaceId)),
});
