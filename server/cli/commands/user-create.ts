import { createUser } from "../../users/create-user.ts";
import { getWorkspaceOrThrow } from "../../workspaces/create-workspace.ts";
import { oneOf, requiredString, UsageError, withDatabase, type Command } from "../command.ts";
import { OPERATOR } from "../../lib/caller.ts";

const ROLES = ["admin", "support"] as const;

export const userCreate: Command = {
  name: "user create",
  summary: "Create a dashboard user, or add an existing user to a workspace",
  usage: "user create --workspace W --email E --password P --role admin|support",
  help: [
    ["--workspace W", "the workspace identifier"],
    ["--email E", "the sign-in e-mail; an existing user keeps their password and gets this workspace"],
    ["--password P", "8 to 200 characters"],
    ["--role admin|support", "admin may change settings and keys; support may only read"],
  ],
  options: { workspace: { type: "string" }, email: { type: "string" }, password: { type: "string" }, role: { type: "string" } },
  flags: { workspace: "--workspace", email: "--email", password: "--password", role: "--role" },
  async run(values) {
    const workspace = requiredString(values, "workspace");
    const email = requiredString(values, "email");
    const password = requiredString(values, "password");
    const role = oneOf(values, "role", ROLES);
    if (!role) throw new UsageError("--role is required (admin or support).");
    const user = await withDatabase(async (database) => {
      await getWorkspaceOrThrow(database, workspace);
      return createUser(database, workspace, { email, password, role }, OPERATOR);
    });
    return { json: { id: user.id }, text: `User ${user.id} (${email.trim().toLowerCase()}) is ${role} of workspace ${workspace}.` };
  },
};
