import { readFileSync } from "node:fs";
import { createFlow } from "../../flows/save-flow.ts";
import type { FlowDefinitionInput } from "../../flows/flow-schemas.ts";
import { getWorkspaceOrThrow } from "../../workspaces/create-workspace.ts";
import { oneOf, requiredString, UsageError, withDatabase, type Command } from "../command.ts";
import { OPERATOR } from "../../lib/caller.ts";

const STATUSES = ["draft", "active", "paused"] as const;

export const flowImport: Command = {
  name: "flow import",
  summary: "Create a flow from a definition file (the dashboard's export format)",
  usage: "flow import --workspace W --file PATH [--status draft|active|paused]",
  help: [
    ["--workspace W", "the workspace identifier"],
    ["--file PATH", "a JSON flow definition: name, status, allow_reentry, steps"],
    ["--status S", "draft, active or paused; overrides the file's status (draft when neither says)"],
    ["", "The definition is checked as in the dashboard; a fault names its path, e.g. steps.2.if.has_tag."],
  ],
  options: { workspace: { type: "string" }, file: { type: "string" }, status: { type: "string" } },
  flags: { workspace: "--workspace", file: "--file", status: "--status" },
  async run(values) {
    const workspace = requiredString(values, "workspace");
    const file = requiredString(values, "file");
    const status = oneOf(values, "status", STATUSES);
    let definition: FlowDefinitionInput;
    try {
      definition = JSON.parse(readFileSync(file, "utf8")) as FlowDefinitionInput;
    } catch (err) {
      throw new UsageError(`--file: cannot read a JSON flow definition from ${file} (${(err as Error).message}).`);
    }
    if (!definition || typeof definition !== "object" || Array.isArray(definition))
      throw new UsageError("--file: the definition must be a JSON object.");
    const { flow_id } = await withDatabase(async (database) => {
      await getWorkspaceOrThrow(database, workspace);
      return createFlow(database, workspace, status ? { ...definition, status } : definition, OPERATOR);
    });
    return { json: { flow_id }, text: `Imported flow ${flow_id} into workspace ${workspace}${status ? ` (${status})` : ""}.` };
  },
};
