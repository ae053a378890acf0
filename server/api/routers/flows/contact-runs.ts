import { z } from "zod";
import { contactRuns as list } from "../../../flows/contact-runs.ts";
import { workspaceProcedure } from "../../trpc.ts";

/** Dashboard only: a contact's runs in every flow, for its page. */
export const contactRuns = workspaceProcedure
  .input(z.object({ contact_id: z.string().min(1).max(64) }))
  .query(({ ctx, input }) => list(ctx.db, ctx.caller.workspaceId, input.contact_id));
