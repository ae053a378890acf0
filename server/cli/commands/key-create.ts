import { createKey } from "../../keys/create-key.ts";
import { isScope, MODES, SCOPES, type Scope } from "../../keys/scopes.ts";
import { getWorkspaceOrThrow } from "../../workspaces/create-workspace.ts";
import { oneOf, optionalString, requiredString, UsageError, withDatabase, type Command } from "../command.ts";
import { OPERATOR } from "../../lib/caller.ts";

export const keyCreate: Command = {
  name: "key create",
  summary: "Create an API key (the key is shown once)",
  usage: "key create --workspace W --mode test|live [--scopes s1,s2,…] [--name TEXT]",
  help: [
    ["--workspace W", "the workspace identifier"],
    ["--mode test|live", "test keys simulate sending; live keys really send"],
    ["--scopes s1,s2,…", `comma-separated, of ${SCOPES.join(", ")}; absent: all scopes, including scopes added later`],
    ["--name TEXT", 'a label shown in the dashboard ("API key" by default)'],
  ],
  options: { workspace: { type: "string" }, mode: { type: "string" }, scopes: { type: "string" }, name: { type: "string" } },
  flags: { workspace: "--workspace", mode: "--mode", scopes: "--scopes", name: "--name" },
  async run(values) {
    const workspace = requiredString(values, "workspace");
    const mode = oneOf(values, "mode", MODES);
    if (!mode) throw new UsageError("--mode is required (test or live).");
    const scopes = parseScopes(optionalString(values, "scopes"));
    const name = optionalString(values, "name");
    const key = await withDatabase(async (database) => {
      await getWorkspaceOrThrow(database, workspace);
      return createKey(database, workspace, { mode, scopes, name }, OPERATOR);
    });
    return {
      json: { id: key.id, key: key.key },
      text: [
        `Created ${mode} key ${key.id} in workspace ${workspace} (scopes: ${scopes ? scopes.join(", ") : "all, including scopes added later"}).`,
        "",
        `  ${key.key}`,
        "",
        "Store it now: it is shown only once (only its hash is kept).",
      ].join("\n"),
    };
  },
};

/** `undefined` means all scopes (the service's default). */
function parseScopes(raw: string | undefined): Scope[] | undefined {
  if (raw === undefined) return undefined;
  const scopes = [
    ...new Set(
      raw
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
  if (scopes.length === 0) throw new UsageError("--scopes needs at least one scope.");
  const unknown = scopes.filter((s) => !isScope(s));
  if (unknown.length > 0) {
    throw new UsageError(`unknown scope${unknown.length > 1 ? "s" : ""} ${unknown.join(", ")}. Valid scopes: ${SCOPES.join(", ")}.`);
  }
  return scopes.filter(isScope);
}
