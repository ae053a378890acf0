import { readFileSync } from "node:fs";
import { createFlow, updateFlow } from "../../flows/save-flow.ts";
import { MIGRATE, type FlowDefinitionInput } from "../../flows/flow-schemas.ts";
import { getWorkspaceOrThrow } from "../../workspaces/create-workspace.ts";
import { oneOf, requiredString, UsageError, withDatabase, type Command } from "../command.ts";
import { OPERATOR } from "../../lib/caller.ts";

const STATUSES = ["draft", "active", "paused"] as const;

export const flowImport: Command = {
  name: "flow import",
  summary: "Create a flow from a definition file (the dashboard's export format)",
  usage: "flow import --workspace W --file PATH [--status draft|active|paused] [--flow ID [--migrate keep|move]]",
  help: [
    ["--workspace W", "the workspace identifier"],
    ["--file PATH", "a JSON flow definition: name, status, allow_reentry, steps"],
    ["--status S", "draft, active or paused; overrides the file's status (draft when neither says)"],
    ["--flow ID", "save the file as the next version of this flow instead of creating one"],
    ["--migrate M", "with --flow: keep (the default) leaves active runs on their version, move puts them on the new one"],
    ["", "The definition is checked as in the dashboard; a fault names its path, e.g. steps.2.if.has_tag."],
  ],
  options: {
    workspace: { type: "string" },
    file: { type: "string" },
    status: { type: "string" },
    flow: { type: "string" },
    migrate: { type: "string" },
  },
  flags: { workspace: "--workspace", file: "--file", status: "--status", flow: "--flow", flow_id: "--flow", migrate: "--migrate" },
  async run(values) {
    const workspace = requiredString(values, "workspace");
    const file = requiredString(values, "file");
    const status = oneOf(values, "status", STATUSES);
    const migrate = oneOf(values, "migrate", MIGRATE);
    const flow = typeof values.flow === "string" ? values.flow : undefined;
    if (migrate && !flow) throw new UsageError("--migrate: give the flow to save a new version of with --flow.");
    let definition: FlowDefinitionInput;
    try {
      definition = JSON.parse(readFileSync(file, "utf8")) as FlowDefinitionInput;
    } catch (err) {
      throw new UsageError(`--file: cannot read a JSON flow definition from ${file} (${(err as Error).message}).`);
    }
    if (!definition || typeof definition !== "object" || Array.isArray(definition))
      throw new UsageError("--file: the definition must be a JSON object.");
    const document = { ...definition, ...(status ? { status } : {}), ...(migrate ? { migrate } : {}) };
    const saved = await withDatabase(async (database) => {
      await getWorkspaceOrThrow(database, workspace);
      // D70: a new version of an existing flow, its active runs kept or moved.
      if (flow) return updateFlow(database, workspace, flow, document, OPERATOR);
      return createFlow(database, workspace, document, OPERATOR);
    });
    const moved = (saved as { runs?: { moved: number; completed: number } }).runs;
    const runs = moved ? ` (${moved.moved} runs moved, ${moved.completed} completed)` : "";
    // operations.md: `{"flow_id", "version"}` (and, for a new version, what became of its runs).
    const json = "flow" in saved ? { flow_id: saved.flow_id, version: saved.flow.version } : saved;
    return {
      json,
      text: flow
        ? `Saved flow ${flow} as version ${"version" in saved ? saved.version : ""}${runs}.`
        : `Imported flow ${saved.flow_id} into workspace ${workspace}${status ? ` (${status})` : ""}.`,
    };
  },
};
