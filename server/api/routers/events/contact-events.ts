import { z } from "zod";
import { contactEventEffects, listContactEvents } from "../../../contact-events/list-contact-events.ts";
import { workspaceProcedure } from "../../trpc.ts";

/**
 * Dashboard only: one contact's events for its page, newest first, in both modes (each says
 * its own), as the page shows the contact's live and test messages and runs together (D40); each with the runs it started, woke or converted.
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
    // The runs each woke or converted (D63, D64), beside those it started (`triggered`).
    const effects = await contactEventEffects(
      ctx.db,
      ctx.caller.workspaceId,
      input.contact_id,
      items.map((e) => e.id),
    );
    return { items: items.map((e) => ({ ...e, effects: effects.filter((x) => x.event_id === e.id) })), next };
  });
