import { z } from "zod";
import { contactNames as names } from "../../../flows/list-runs.ts";
import { workspaceProcedure } from "../../trpc.ts";

/** Dashboard only: the names and addresses of up to 1,000 contacts (a preview's people), by id. */
export const contactNames = workspaceProcedure
  .input(z.object({ ids: z.array(z.string().max(64)).max(1_000) }))
  .query(async ({ ctx, input }) => Object.fromEntries(await names(ctx.db, ctx.caller.workspaceId, input.ids)));
