import { getWorkspaceOrThrow } from "../../workspaces/create-workspace.ts";
import { syncWorkspaceTemplates } from "../../whatsapp/sync-templates.ts";
import { requiredString, withDatabase, type Command } from "../command.ts";

/** D41: `svc channel sync-templates --workspace W --channel ID`: the templates synced now. */
export const channelSyncTemplates: Command = {
  name: "channel sync-templates",
  summary: "Sync a WhatsApp channel's message templates from the Cloud API now",
  usage: "channel sync-templates --workspace W --channel ID",
  help: [
    ["--workspace W", "the workspace identifier"],
    ["--channel ID", "the WhatsApp channel (ch_…), connected with --waba-id"],
  ],
  options: { workspace: { type: "string" }, channel: { type: "string" } },
  flags: { workspace: "--workspace", channel: "--channel", channel_id: "--channel" },
  async run(values) {
    const workspace = requiredString(values, "workspace");
    const channel = requiredString(values, "channel");
    const result = await withDatabase(async (database) => {
      await getWorkspaceOrThrow(database, workspace);
      return syncWorkspaceTemplates(database, workspace, channel);
    });
    return { json: result, text: `Synced ${result.templates} template(s) of channel ${result.channel_id} at ${result.synced_at}.` };
  },
};
