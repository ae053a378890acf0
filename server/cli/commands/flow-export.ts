import { getFlow } from "../../flows/get-flow.ts";
import { getWorkspaceOrThrow } from "../../workspaces/create-workspace.ts";
import { requiredString, withDatabase, type Command } from "../command.ts";

export const flowExport: Command = {
  name: "flow export",
  summary: "Print a flow's current definition (what flow import and the dashboard take back)",
  usage: "flow export --workspace W --flow ID",
  help: [
    ["--workspace W", "the workspace identifier"],
    ["--flow ID", "the flow's id (flow_…)"],
    ["", "Prints the JSON document with every step's id; `flow import --flow ID --migrate keep` of it changes nothing."],
  ],
  options: { workspace: { type: "string" }, flow: { type: "string" } },
  flags: { workspace: "--workspace", flow: "--flow", flow_id: "--flow" },
  async run(values) {
    const workspace = requiredString(values, "workspace");
    const flow = requiredString(values, "flow");
    const { definition } = await withDatabase(async (database) => {
      await getWorkspaceOrThrow(database, workspace);
      return getFlow(database, workspace, flow);
    });
    // D98: the document itself, as the dashboard exports it (pretty as text, one line with --json).
    return { json: definition, text: JSON.stringify(definition, null, 2) };
  },
};
