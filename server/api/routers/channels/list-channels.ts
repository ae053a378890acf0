import { z } from "zod";
import { listChannels as list } from "../../../channels/list-channels.ts";
import { workspaceProcedure } from "../../trpc.ts";

// Dashboard only (no `meta.openapi`): channels carry provider credentials, never shown here.
export const listChannels = workspaceProcedure
  .input(z.object({ include_disconnected: z.boolean().optional() }).optional())
  .query(({ ctx, input }) => list(ctx.db, ctx.caller.workspaceId, { includeDisconnected: input?.include_disconnected }));
