import { resetPassword } from "../../users/reset-password.ts";
import { getWorkspaceOrThrow } from "../../workspaces/create-workspace.ts";
import { optionalString, requiredString, withDatabase, type Command } from "../command.ts";
import { OPERATOR } from "../../lib/caller.ts";

export const userResetPassword: Command = {
  name: "user reset-password",
  summary: "Set a dashboard user's password (a generated one when --password is absent)",
  usage: "user reset-password --workspace W --email E [--password P]",
  help: [
    ["--workspace W", "the workspace identifier"],
    ["--email E", "the sign-in e-mail of a member of that workspace"],
    ["--password P", "8 to 200 characters; absent, a password is generated and printed once"],
  ],
  options: { workspace: { type: "string" }, email: { type: "string" }, password: { type: "string" } },
  flags: { workspace: "--workspace", email: "--email", password: "--password" },
  async run(values) {
    const workspace = requiredString(values, "workspace");
    const email = requiredString(values, "email");
    const given = optionalString(values, "password");
    const result = await withDatabase(async (database) => {
      await getWorkspaceOrThrow(database, workspace);
      return resetPassword(database, workspace, { email, password: given }, OPERATOR);
    });
    return {
      json: result.generated ? { id: result.id, password: result.password } : { id: result.id },
      text: result.generated ? `New password of ${email}: ${result.password} (shown once).` : `Password of ${email} changed.`,
    };
  },
};
