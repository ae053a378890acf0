import { z } from "zod";
import { listContactEvents } from "../../../contact-events/list-contact-events.ts";
import { workspaceProcedure } from "../../trpc.ts";

/**
 * Dashboard only: one contact's events for its page, newest first, in both modes (each says
 * its own), as the page shows the contact's live and test messages and runs together (D40).
 */
export const contactEvents = workspaceProcedure
  .input(
    z.object({
      contact_id: z.string().min(1).max(64),
      limit: z.number().int().min(1).max(100).default(10),
      after: z.string().min(1).max(64).optional(),
    }),
  )
  .query(async ({ ctx, input }) => {
    const { items, next } = await listContactEvents(
      ctx.db,
      { workspaceId: ctx.caller.workspaceId, mode: null },
      { contact_id: input.contact_id },
      { limit: input.limit, after: input.after },
      null,
    );
    return { items, next };
  });
