import { OPERATOR } from "../../lib/caller.ts";
import { getWorkspaceOrThrow } from "../../workspaces/create-workspace.ts";
import { resumeChannel } from "../../channels/channel-pause.ts";
import { requiredString, withDatabase, type Command } from "../command.ts";

/** D90, D93: `svc channel resume --workspace W --channel ID`: a paused channel sends again. */
export const channelResume: Command = {
  name: "channel resume",
  summary: "Resume a paused channel (WhatsApp payment or policy stop, or the e-mail reputation guard)",
  usage: "channel resume --workspace W --channel ID",
  help: [
    ["--workspace W", "the workspace identifier"],
    ["--channel ID", "the paused channel (ch_…)"],
  ],
  options: { workspace: { type: "string" }, channel: { type: "string" } },
  flags: { workspace: "--workspace", channel: "--channel", channel_id: "--channel" },
  async run(values) {
    const workspace = requiredString(values, "workspace");
    const channel = requiredString(values, "channel");
    const result = await withDatabase(async (database) => {
      await getWorkspaceOrThrow(database, workspace);
      return database.transaction((sql) => resumeChannel(sql, workspace, channel, OPERATOR));
    });
    return { json: result, text: `Channel ${result.channel_id} is ${result.status}.` };
  },
};
