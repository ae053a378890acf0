import { z } from "zod";
import { ZPageQuery } from "../../../lib/pagination.ts";
import { searchMessages as search } from "../../../messaging/inspect-messages.ts";
import { workspaceProcedure } from "../../trpc.ts";

/** Dashboard only: the message inspector's list. */
export const searchMessages = workspaceProcedure
  .input(
    ZPageQuery.extend({
      limit: z.number().int().min(1).max(100).default(25),
      q: z.string().max(200).optional(),
      status: z.enum(["queued", "sent", "delivered", "read", "failed", "received"]).optional(),
      channel: z.enum(["whatsapp", "email"]).optional(),
      mode: z.enum(["test", "live"]).optional(),
      from: z.coerce.date().optional(),
      to: z.coerce.date().optional(),
    }),
  )
  .query(({ ctx, input }) => {
    const { limit, after, ...filter } = input;
    return search(ctx.db, ctx.actor.workspaceId, filter, { limit, after });
  });
