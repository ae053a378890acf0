import { readFileSync, statSync } from "node:fs";
import { callbackUrl, type ConnectChannelRequest } from "../../channels/channel-schemas.ts";
import type { ChannelType, CliOption, CliValues } from "../../channels/channel.ts";
import { CHANNEL_TYPES, channelOf } from "../../channels/registry.ts";
import { connectChannel } from "../../channels/connect-channel.ts";
import { env } from "../../lib/env.ts";
import { getWorkspaceOrThrow } from "../../workspaces/create-workspace.ts";
import { oneOf, optionalString, requiredString, UsageError, wholeNumber, withDatabase, type Command, type Values } from "../command.ts";
import { OPERATOR } from "../../lib/caller.ts";

// `svc channel connect`: every type's options, request and answer are its channel module's
// (`connect.cli`, server/channels/<type>/connect.ts); this command joins them.

/** "a, b and c" / "a, b or c". */
const words = (list: readonly string[], and: "and" | "or") =>
  list.length > 1 ? `${list.slice(0, -1).join(", ")} ${and} ${list.at(-1)}` : (list[0] ?? "");

/** Each flag of the types' options, with the types that take it (`--from`: e-mail and sms), in the registry's order. */
const OPTIONS = new Map<string, { option: CliOption; types: ChannelType[]; help: string[] }>();
for (const type of CHANNEL_TYPES) {
  for (const option of channelOf(type).connect.cli.options) {
    const seen = OPTIONS.get(option.flag) ?? { option, types: [], help: [] };
    seen.types.push(type);
    seen.help.push(`${type}: ${option.help}`);
    OPTIONS.set(option.flag, seen);
  }
}

/** "80 for WhatsApp, 10 for e-mail and SMS": the types' default rates, the types of one rate together. */
function defaultRates(): string {
  const byRate = new Map<number, string[]>();
  for (const type of CHANNEL_TYPES) {
    const { connect, label } = channelOf(type);
    byRate.set(connect.defaultRatePerSecond, [...(byRate.get(connect.defaultRatePerSecond) ?? []), label]);
  }
  return [...byRate].map(([rate, labels]) => `${rate} for ${words(labels, "and")}`).join(", ");
}

/** A PEM key file (the one file an option names) is a few KiB; anything much larger is not one (and is not read whole). */
const MAX_KEY_FILE_BYTES = 64 * 1024;

function readKeyFile(flag: string, path: string): string {
  let size: number;
  try {
    size = statSync(path).size;
  } catch (err) {
    throw new UsageError(`--${flag}: cannot read ${path} (${(err as NodeJS.ErrnoException).code ?? "error"}).`);
  }
  if (size > MAX_KEY_FILE_BYTES) throw new UsageError(`--${flag}: ${path} is not a PEM key file (${size} bytes).`);
  return readFileSync(path, "utf8");
}

function request(values: Values, type: ChannelType): ConnectChannelRequest {
  for (const [flag, { types }] of OPTIONS) {
    if (values[flag] !== undefined && !types.includes(type)) throw new UsageError(`--${flag} is only for --type ${types.join(" or ")}.`);
  }
  const given: CliValues = {
    required: (flag) => requiredString(values, flag),
    optional: (flag) => optionalString(values, flag),
    file: (flag) => readKeyFile(flag, requiredString(values, flag)),
    fail: (message) => {
      throw new UsageError(message);
    },
  };
  const common = { name: optionalString(values, "name"), rate_per_second: wholeNumber(values, "rate-per-second", 1) };
  // Checked by the connect request's schema in connectChannel, as an API request is.
  return { type, ...common, ...channelOf(type).connect.cli.request(given) } as ConnectChannelRequest;
}

const options = [...OPTIONS.values()];

export const channelConnect: Command = {
  name: "channel connect",
  summary: "Connect a WhatsApp Cloud API number, an SMTP relay or a Twilio account (SMS) to a workspace",
  usage: CHANNEL_TYPES.map((type) => `channel connect --workspace W --type ${type} ${channelOf(type).connect.cli.usage}`).join(
    "\n       svc ",
  ),
  help: [
    ["--workspace W", "the workspace identifier"],
    [`--type ${CHANNEL_TYPES.join("|")}`, "the channel type"],
    ...options.map(({ option, help }): [string, string] => [`--${option.flag} ${option.arg}`, help.join("; ")]),
    ["--name TEXT", "a label for the dashboard"],
    ["--rate-per-second N", `provider calls per second at most (${defaultRates()} by default)`],
    [
      "",
      "Provider hosts on loopback or private addresses are refused unless ALLOW_PRIVATE_WEBHOOKS=1. Secrets are stored encrypted with AUTH_SECRET.",
    ],
  ],
  options: {
    workspace: { type: "string" },
    type: { type: "string" },
    ...Object.fromEntries(options.map(({ option }) => [option.flag, { type: "string" as const }])),
    name: { type: "string" },
    "rate-per-second": { type: "string" },
  },
  flags: {
    workspace: "--workspace",
    type: "--type",
    ...Object.fromEntries(options.map(({ option }) => [option.param, `--${option.flag}`])),
    name: "--name",
    rate_per_second: "--rate-per-second",
  },
  async run(values) {
    const workspace = requiredString(values, "workspace");
    const type = oneOf(values, "type", CHANNEL_TYPES);
    if (!type) throw new UsageError(`--type is required (${words(CHANNEL_TYPES, "or")}).`);
    const input = request(values, type);
    const connected = await withDatabase(async (database) => {
      await getWorkspaceOrThrow(database, workspace);
      return connectChannel(database, workspace, input, OPERATOR);
    });
    const { channel } = connected;
    // Everything the text shows, --json carries too: e-mail's events token above all, shown only now.
    const { json, text } = channelOf(channel.type).connect.cli.connected({
      channelId: connected.channel_id,
      workspace,
      externalId: channel.external_id,
      settings: channel.settings,
      eventsToken: connected.events_token,
      callbackUrl: callbackUrl(channel, env().appUrl),
      appUrl: env().appUrl,
    });
    return { json, text: text.join("\n") };
  },
};
