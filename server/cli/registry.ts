import type { Command } from "./command.ts";

// The commands of `svc`, each loaded only when it runs: a command's module brings in the
// services it calls and, through them, zod, pg and Prisma's client, about half a second of
// loading on a busy machine. `svc --help` and `svc <group>` read only the names and summaries
// here; registry.test.ts checks that they are the ones the commands declare.

export type Entry = {
  /** The command words, as the command module declares them. */
  name: string;
  /** The command's one-line summary, as the command module declares it. */
  summary: string;
  load(): Promise<Command>;
};

export const COMMANDS: Entry[] = [
  {
    name: "workspace create",
    summary: "Create a workspace",
    load: async () => (await import("./commands/workspace-create.ts")).workspaceCreate,
  },
  {
    name: "workspace update",
    summary: "Change a workspace's time zone, frequency caps and WhatsApp prices",
    load: async () => (await import("./commands/workspace-update.ts")).workspaceUpdate,
  },
  {
    name: "key create",
    summary: "Create an API key (the key is shown once)",
    load: async () => (await import("./commands/key-create.ts")).keyCreate,
  },
  {
    name: "key revoke",
    summary: "Revoke an API key (at once, on every instance)",
    load: async () => (await import("./commands/key-revoke.ts")).keyRevoke,
  },
  {
    name: "user create",
    summary: "Create a dashboard user, or add an existing user to a workspace",
    load: async () => (await import("./commands/user-create.ts")).userCreate,
  },
  {
    name: "user reset-password",
    summary: "Set a dashboard user's password (a generated one when --password is absent)",
    load: async () => (await import("./commands/user-reset-password.ts")).userResetPassword,
  },
  {
    name: "channel connect",
    summary: "Connect a WhatsApp Cloud API number, an SMTP relay or a Twilio account (SMS) to a workspace",
    load: async () => (await import("./commands/channel-connect.ts")).channelConnect,
  },
  {
    name: "channel sync-templates",
    summary: "Sync a WhatsApp channel's message templates from the Cloud API now",
    load: async () => (await import("./commands/channel-sync-templates.ts")).channelSyncTemplates,
  },
  {
    name: "channel dns",
    summary: "List and check the DNS records of an e-mail channel's domain (DKIM, SPF, DMARC, MX)",
    load: async () => (await import("./commands/channel-dns.ts")).channelDns,
  },
  {
    name: "channel resume",
    summary: "Resume a paused channel (WhatsApp payment or policy stop, or the e-mail reputation guard)",
    load: async () => (await import("./commands/channel-resume.ts")).channelResume,
  },
  {
    name: "webhook create",
    summary: "Register a webhook endpoint and print its signing secret (once)",
    load: async () => (await import("./commands/webhook-create.ts")).webhookCreate,
  },
  {
    name: "listen",
    summary: "Forward the workspace's test-mode events to a local URL, signed (no public endpoint needed)",
    load: async () => (await import("./commands/listen.ts")).listen,
  },
  {
    name: "trigger",
    summary: "Fire a sample test-mode event into the workspace's event stream (what svc listen forwards)",
    load: async () => (await import("./commands/trigger.ts")).trigger,
  },
  {
    name: "flow import",
    summary: "Create a flow from a definition file (the dashboard's export format)",
    load: async () => (await import("./commands/flow-import.ts")).flowImport,
  },
  {
    name: "flow export",
    summary: "Print a flow's current definition (what flow import and the dashboard take back)",
    load: async () => (await import("./commands/flow-export.ts")).flowExport,
  },
  {
    name: "demo",
    summary: "Create the demo workspace (once) and print its sign-in and keys; later, a new demo password",
    load: async () => (await import("./commands/demo.ts")).demo,
  },
  {
    name: "tick",
    summary: "Run one pass of the delivery pipeline and exit",
    load: async () => (await import("./commands/tick.ts")).tick,
  },
];
