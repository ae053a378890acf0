import { z } from "zod";
import { notFound } from "../../../lib/errors.ts";
import { messageDetail as detail } from "../../../messaging/inspect-messages.ts";
import { workspaceProcedure } from "../../trpc.ts";

/** Dashboard only: a message's timeline (every state change, provider reply and report). */
export const messageDetail = workspaceProcedure.input(z.object({ id: z.string() })).query(async ({ ctx, input }) => {
  const found = await detail(ctx.db, ctx.caller.workspaceId, input.id);
  if (!found) throw notFound("message", "id");
  return found;
});
