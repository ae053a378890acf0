import { ensureDemo } from "../../demo/ensure-demo.ts";
import { withDatabase, type Command } from "../command.ts";

export const demo: Command = {
  name: "demo",
  summary: "Create the demo workspace (once) and print its sign-in and keys",
  usage: "demo",
  help: [],
  options: {},
  async run() {
    const d = await withDatabase((database) => ensureDemo(database));
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
      : `The demo workspace ${d.workspace} already exists; sign in as ${d.email} (the password and keys were shown when it was created).`;
    return { json, text };
  },
};
