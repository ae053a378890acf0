import { readFileSync, statSync } from "node:fs";
import { callbackUrl, type ConnectChannelRequest } from "../../channels/channel-schemas.ts";
import { DEFAULT_GRAPH_API_BASE_URL } from "../../providers/provider.ts";
import { DEFAULT_TWILIO_API_BASE_URL } from "../../providers/twilio-callback.ts";
import { connectChannel } from "../../channels/connect-channel.ts";
import { env } from "../../lib/env.ts";
import { getWorkspaceOrThrow } from "../../workspaces/create-workspace.ts";
import { oneOf, optionalString, requiredString, UsageError, wholeNumber, withDatabase, type Command, type Values } from "../command.ts";
import { OPERATOR } from "../../lib/caller.ts";

const TYPES = ["whatsapp", "email", "sms"] as const;

type Type = (typeof TYPES)[number];

const ONLY_FOR: Record<string, Type[]> = {
  "phone-number-id": ["whatsapp"],
  "access-token": ["whatsapp"],
  "app-secret": ["whatsapp"],
  "verify-token": ["whatsapp"],
  "api-base-url": ["whatsapp", "sms"],
  "waba-id": ["whatsapp"],
  "smtp-url": ["email"],
  from: ["email", "sms"],
  "tracking-base-url": ["email"],
  "bounce-domain": ["email"],
  "dkim-selector": ["email"],
  "dkim-private-key-file": ["email"],
  "account-sid": ["sms"],
  "auth-token": ["sms"],
  "messaging-service-sid": ["sms"],
};

/** A PEM key file is a few KiB; anything much larger is not one (and is not read whole). */
const MAX_KEY_FILE_BYTES = 64 * 1024;

function readKeyFile(path: string): string {
  let size: number;
  try {
    size = statSync(path).size;
  } catch (err) {
    throw new UsageError(`--dkim-private-key-file: cannot read ${path} (${(err as NodeJS.ErrnoException).code ?? "error"}).`);
  }
  if (size > MAX_KEY_FILE_BYTES) throw new UsageError(`--dkim-private-key-file: ${path} is not a PEM key file (${size} bytes).`);
  return readFileSync(path, "utf8");
}

function request(values: Values, type: Type): ConnectChannelRequest {
  for (const [flag, only] of Object.entries(ONLY_FOR)) {
    if (values[flag] !== undefined && !only.includes(type)) throw new UsageError(`--${flag} is only for --type ${only.join(" or ")}.`);
  }
  const common = { name: optionalString(values, "name"), rate_per_second: wholeNumber(values, "rate-per-second", 1) };
  if (type === "whatsapp") {
    return {
      type,
      ...common,
      phone_number_id: requiredString(values, "phone-number-id"),
      access_token: requiredString(values, "access-token"),
      app_secret: requiredString(values, "app-secret"),
      verify_token: requiredString(values, "verify-token"),
      api_base_url: optionalString(values, "api-base-url"),
      waba_id: optionalString(values, "waba-id"),
    };
  }
  if (type === "sms") {
    const from = optionalString(values, "from");
    const service = optionalString(values, "messaging-service-sid");
    if ((from === undefined) === (service === undefined))
      throw new UsageError("--type sms needs either --from or --messaging-service-sid.");
    return {
      type,
      ...common,
      account_sid: requiredString(values, "account-sid"),
      auth_token: requiredString(values, "auth-token"),
      from,
      messaging_service_sid: service,
      api_base_url: optionalString(values, "api-base-url"),
    };
  }
  const keyFile = optionalString(values, "dkim-private-key-file");
  if (keyFile !== undefined && optionalString(values, "dkim-selector") === undefined) {
    throw new UsageError("--dkim-private-key-file needs --dkim-selector.");
  }
  return {
    type,
    ...common,
    smtp_url: requiredString(values, "smtp-url"),
    from: requiredString(values, "from"),
    tracking_base_url: optionalString(values, "tracking-base-url"),
    bounce_domain: optionalString(values, "bounce-domain"),
    dkim_selector: optionalString(values, "dkim-selector"),
    dkim_private_key: keyFile === undefined ? undefined : readKeyFile(keyFile),
  };
}

export const channelConnect: Command = {
  name: "channel connect",
  summary: "Connect a WhatsApp Cloud API number, an SMTP relay or a Twilio account (SMS) to a workspace",
  usage:
    "channel connect --workspace W --type whatsapp --phone-number-id ID --access-token T --app-secret S --verify-token V [--waba-id ID] [--api-base-url URL]\n" +
    "       svc channel connect --workspace W --type email --smtp-url URL --from ADDRESS [--tracking-base-url URL] [--bounce-domain DOMAIN] [--dkim-selector S [--dkim-private-key-file PATH]]\n" +
    "       svc channel connect --workspace W --type sms --account-sid AC... --auth-token T (--from +E164 | --messaging-service-sid MG...) [--api-base-url URL]",
  help: [
    ["--workspace W", "the workspace identifier"],
    ["--type whatsapp|email|sms", "the channel type"],
    ["--phone-number-id ID", "whatsapp: the Cloud API phone number id (status reports are routed by it)"],
    ["--access-token T", "whatsapp: the access token sent as bearer to the Graph API"],
    ["--app-secret S", "whatsapp: the Meta app secret that signs webhooks (X-Hub-Signature-256)"],
    ["--verify-token V", "whatsapp: the token Meta's webhook handshake must present"],
    ["--waba-id ID", "whatsapp: the WhatsApp Business account id; its message templates are synced from it"],
    [
      "--api-base-url URL",
      `whatsapp: the Graph API base with its version (${DEFAULT_GRAPH_API_BASE_URL} by default); sms: the Twilio API base (${DEFAULT_TWILIO_API_BASE_URL} by default)`,
    ],
    ["--smtp-url URL", "email: smtp:// or smtps://, with optional user:password@, e.g. smtps://user:pass@smtp.example.com:465"],
    ["--from ADDRESS", "email: the sender address; sms: the account's sending number, +E164"],
    ["--account-sid AC...", "sms: the Twilio account SID"],
    ["--auth-token T", "sms: the account's auth token (Basic auth, and the key of X-Twilio-Signature)"],
    ["--messaging-service-sid MG...", "sms: a Messaging Service that picks the sender, instead of --from"],
    ["--tracking-base-url URL", "email: origin of the tracking image and unsubscribe links (APP_URL by default)"],
    ["--bounce-domain DOMAIN", "email: return path bounces+<message id>@DOMAIN; point its MX at the service's SMTP listener"],
    ["--dkim-selector S", "email: sign every mail with DKIM under selector S (a 2048-bit RSA key is generated); see svc channel dns"],
    ["--dkim-private-key-file PATH", "email: with --dkim-selector, sign with this PEM RSA private key instead"],
    ["--name TEXT", "a label for the dashboard"],
    ["--rate-per-second N", "provider calls per second at most (80 for WhatsApp, 10 for e-mail and SMS by default)"],
    [
      "",
      "Provider hosts on loopback or private addresses are refused unless ALLOW_PRIVATE_WEBHOOKS=1. Secrets are stored encrypted with AUTH_SECRET.",
    ],
  ],
  options: {
    workspace: { type: "string" },
    type: { type: "string" },
    "phone-number-id": { type: "string" },
    "access-token": { type: "string" },
    "app-secret": { type: "string" },
    "verify-token": { type: "string" },
    "api-base-url": { type: "string" },
    "waba-id": { type: "string" },
    "smtp-url": { type: "string" },
    from: { type: "string" },
    "tracking-base-url": { type: "string" },
    "bounce-domain": { type: "string" },
    "dkim-selector": { type: "string" },
    "dkim-private-key-file": { type: "string" },
    "account-sid": { type: "string" },
    "auth-token": { type: "string" },
    "messaging-service-sid": { type: "string" },
    name: { type: "string" },
    "rate-per-second": { type: "string" },
  },
  flags: {
    workspace: "--workspace",
    type: "--type",
    phone_number_id: "--phone-number-id",
    access_token: "--access-token",
    app_secret: "--app-secret",
    verify_token: "--verify-token",
    api_base_url: "--api-base-url",
    waba_id: "--waba-id",
    smtp_url: "--smtp-url",
    from: "--from",
    tracking_base_url: "--tracking-base-url",
    bounce_domain: "--bounce-domain",
    dkim_selector: "--dkim-selector",
    dkim_private_key: "--dkim-private-key-file",
    account_sid: "--account-sid",
    auth_token: "--auth-token",
    messaging_service_sid: "--messaging-service-sid",
    name: "--name",
    rate_per_second: "--rate-per-second",
  },
  async run(values) {
    const workspace = requiredString(values, "workspace");
    const type = oneOf(values, "type", TYPES);
    if (!type) throw new UsageError("--type is required (whatsapp, email or sms).");
    const input = request(values, type);
    const connected = await withDatabase(async (database) => {
      await getWorkspaceOrThrow(database, workspace);
      return connectChannel(database, workspace, input, OPERATOR);
    });
    const { channel } = connected;
    if (channel.type === "sms") {
      const url = callbackUrl(channel, env().appUrl);
      return {
        json: { channel_id: connected.channel_id, status_callback_url: url },
        text: [
          `Connected SMS channel ${connected.channel_id} (Twilio account ${channel.external_id}) to workspace ${workspace}.`,
          "",
          "Each message is sent with its status callback URL. In Twilio's console, set the sending number's",
          `(or the Messaging Service's) incoming message webhook to ${url} (HTTP POST).`,
        ].join("\n"),
      };
    }
    // Everything the text shows, --json carries too: the events token above all, shown only now.
    const json =
      channel.type === "whatsapp"
        ? { channel_id: connected.channel_id, callback_url: callbackUrl(channel, env().appUrl) }
        : {
            channel_id: connected.channel_id,
            events_token: connected.events_token,
            events_url: callbackUrl(channel, env().appUrl),
            ses_notifications_url: `${env().appUrl}/api/providers/email/ses/${connected.channel_id}`,
          };
    const text =
      channel.type === "whatsapp"
        ? [
            `Connected WhatsApp channel ${connected.channel_id} (phone number id ${channel.external_id}) to workspace ${workspace}.`,
            "",
            `In Meta's app settings, set the webhook callback URL to ${callbackUrl(channel, env().appUrl)}`,
            "with the same verify token, and subscribe to the messages field.",
          ]
        : [
            `Connected e-mail channel ${connected.channel_id} (from ${channel.external_id}) to workspace ${workspace}.`,
            "",
            "Events token (shown only now; your relay posts delivery and bounce reports with it):",
            "",
            `  ${connected.events_token}`,
            "",
            `  POST ${json.events_url}`,
            "  Authorization: Bearer <events token>",
            "",
            `Amazon SES: subscribe ${json.ses_notifications_url} (https) to the SNS topic of its notifications.`,
            ...(channel.settings.dkim_selector
              ? ["", `Mail is signed with DKIM (selector ${channel.settings.dkim_selector}): svc channel dns lists the records to publish.`]
              : []),
          ];
    return { json, text: text.join("\n") };
  },
};
