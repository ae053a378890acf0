import { revokeKey } from "../../keys/revoke-key.ts";
import { getWorkspaceOrThrow } from "../../workspaces/create-workspace.ts";
import { requiredString, withDatabase, type Command } from "../command.ts";
import { OPERATOR } from "../../lib/caller.ts";

export const keyRevoke: Command = {
  name: "key revoke",
  summary: "Revoke an API key (at once, on every instance)",
  usage: "key revoke --workspace W --id ID",
  help: [
    ["--workspace W", "the workspace identifier"],
    ["--id ID", "the key's id (key_…), as printed by key create and listed in the dashboard"],
  ],
  options: { workspace: { type: "string" }, id: { type: "string" } },
  flags: { workspace: "--workspace", id: "--id" },
  async run(values) {
    const workspace = requiredString(values, "workspace");
    const id = requiredString(values, "id");
    const result = await withDatabase(async (database) => {
      await getWorkspaceOrThrow(database, workspace);
      return revokeKey(database, workspace, id, OPERATOR);
    });
    return { json: { revoked: result.revoked }, text: `Revoked key ${id} of workspace ${workspace}.` };
  },
};
