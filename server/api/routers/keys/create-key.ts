import { createKey as create, ZCreateKeyRequest } from "../../../keys/create-key.ts";
import { workspaceProcedure } from "../../trpc.ts";

/** Admins only; the full key is in this response and nowhere else, ever (D21). */
export const createKey = workspaceProcedure
  .meta({ roles: ["admin"] })
  .input(ZCreateKeyRequest)
  .mutation(({ ctx, input }) => create(ctx.db, ctx.caller.workspaceId, input, ctx.caller));
