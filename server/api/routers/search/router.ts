import { z } from "zod";
import { MAX_QUERY, searchWorkspace } from "../../../search/search.ts";
import { router, workspaceProcedure } from "../../trpc.ts";

// Dashboard only: the top bar's search box (no REST path).
export const searchRouter = router({
  find: workspaceProcedure
    .input(z.object({ q: z.string().max(MAX_QUERY) }))
    .query(({ ctx, input }) => searchWorkspace(ctx.db, ctx.caller.workspaceId, input.q)),
});
