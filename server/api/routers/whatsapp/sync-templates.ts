import { z } from "zod";
import { syncWorkspaceTemplates } from "../../../whatsapp/sync-templates.ts";
import { workspaceProcedure } from "../../trpc.ts";

/** The dashboard's "Sync templates" button (D41): admins only. */
export const syncTemplates = workspaceProcedure
  .meta({ roles: ["admin"] })
  .input(z.object({ channel_id: z.string().min(1).max(64) }))
  .mutation(({ ctx, input }) => syncWorkspaceTemplates(ctx.db, ctx.caller.workspaceId, input.channel_id));
