import { z } from "zod";
import { searchContacts as search } from "../../../contacts/search-contacts.ts";
import { ZPageQuery } from "../../../lib/pagination.ts";
import { workspaceProcedure } from "../../trpc.ts";

/** Dashboard only: search by phone, e-mail or name. */
export const searchContacts = workspaceProcedure
  .input(ZPageQuery.extend({ q: z.string().max(200).default(""), limit: z.number().int().min(1).max(100).default(25) }))
  .query(({ ctx, input }) => search(ctx.db, ctx.caller.workspaceId, input.q, input));
