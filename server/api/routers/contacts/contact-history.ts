import { z } from "zod";
import { getContactOrThrow } from "../../../contacts/get-contact.ts";
import { contactHistory as history } from "../../../contacts/search-contacts.ts";
import { workspaceProcedure } from "../../trpc.ts";

/** Dashboard only: the events recorded about one contact (D31 bodies), newest first. */
export const contactHistory = workspaceProcedure.input(z.object({ id: z.string() })).query(async ({ ctx, input }) => {
  await getContactOrThrow(ctx.db, ctx.caller.workspaceId, input.id);
  return history(ctx.db, ctx.caller.workspaceId, input.id);
});
