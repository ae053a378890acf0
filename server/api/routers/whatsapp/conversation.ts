import { z } from "zod";
import { contactConversation } from "../../../whatsapp/conversation.ts";
import { workspaceProcedure } from "../../trpc.ts";

/** Dashboard only: a contact's WhatsApp messages as a thread, and its 24-hour window (D43, D44). */
export const conversation = workspaceProcedure
  .input(z.object({ contact_id: z.string().min(1).max(64), limit: z.number().int().min(1).max(200).default(50) }))
  .query(({ ctx, input }) => contactConversation(ctx.db, ctx.caller.workspaceId, input.contact_id, input.limit));
