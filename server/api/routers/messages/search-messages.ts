import { z } from "zod";
import { ZPageQuery } from "../../../lib/pagination.ts";
import { searchMessages as search } from "../../../messaging/inspect-messages.ts";
import { workspaceProcedure } from "../../trpc.ts";
import { ZMessageSearch } from "./search-messages.types.ts";

/** Dashboard only: the message inspector's list. */
export const searchMessages = workspaceProcedure
  .input(ZPageQuery.extend({ limit: z.number().int().min(1).max(100).default(25) }).extend(ZMessageSearch.shape))
  .query(({ ctx, input }) => {
    const { limit, after, ...filter } = input;
    return search(ctx.db, ctx.caller.workspaceId, filter, { limit, after });
  });
