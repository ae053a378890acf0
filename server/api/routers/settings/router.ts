import { z } from "zod";
import { getSettings, updateSettings, ZWorkspaceSettingsUpdate } from "../../../workspaces/workspace-settings.ts";
import { router, workspaceProcedure } from "../../trpc.ts";

/** The workspace's journey settings (D65 time zone, D67 frequency caps): read by members, changed by admins. */
export const settingsRouter = router({
  get: workspaceProcedure.input(z.void()).query(({ ctx }) => getSettings(ctx.db, ctx.caller.workspaceId)),
  update: workspaceProcedure
    .meta({ roles: ["admin"] })
    .input(ZWorkspaceSettingsUpdate)
    .mutation(({ ctx, input }) => updateSettings(ctx.db, ctx.caller.workspaceId, input, ctx.caller)),
});
