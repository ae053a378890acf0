import { ensureDemo } from "../../demo/ensure-demo.ts";
import { withDatabase, type Command } from "../command.ts";

export const demo: Command = {
  name: "demo",
  summary: "Create the demo workspace (once) and print its sign-in and keys; later, a new demo password",
  usage: "demo",
  help: [],
  options: {},
  async run() {
    const d = await withDatabase((database) => ensureDemo(database, { renewPassword: true }));
    const json = {
      workspace: d.workspace,
      email: d.email,
      password: d.password,
      test_key: d.testKey,
      live_key: d.liveKey,
      created: d.created,
    };
    const text = d.created
      ? [
          `Created the demo workspace ${d.workspace}.`,
          `  Sign in:  ${d.email} / ${d.password}`,
          `  Test key: ${d.testKey}`,
          `  Live key: ${d.liveKey}`,
          "The password and keys are shown only now: only their hashes are kept.",
        ].join("\n")
      : [
          `The demo workspace ${d.workspace} already exists.`,
          `  Sign in:  ${d.email} / ${d.password} (a new password; the previous one no longer works)`,
          "Its keys were shown when it was created (only their hashes are kept): create new ones with",
          `  npx svc key create --workspace ${d.workspace} --mode test`,
        ].join("\n");
    return { json, text };
  },
};
