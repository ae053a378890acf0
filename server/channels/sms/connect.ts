import type { z } from "zod";
import { normalizePhone } from "../../lib/phone.ts";
import { DEFAULT_TWILIO_API_BASE_URL } from "../../providers/twilio-callback.ts";
import type { Channel, ConnectedRow, ConnectKit } from "../channel.ts";
import type { ZConnectSmsRequest } from "./contract.ts";

/** D94: Twilio's Messages API; the account sid names the channel's account, the auth token signs its callbacks. */
export async function prepareSms(request: z.output<typeof ZConnectSmsRequest>, kit: ConnectKit): Promise<ConnectedRow> {
  const apiBaseUrl = request.api_base_url ?? DEFAULT_TWILIO_API_BASE_URL;
  if (apiBaseUrl !== DEFAULT_TWILIO_API_BASE_URL) await kit.assertAllowedHost(new URL(apiBaseUrl).hostname, "api_base_url");
  const from = request.from !== undefined ? normalizePhone(request.from, null, "from") : undefined;
  return {
    name: request.name ?? `SMS ${from ?? request.messaging_service_sid}`,
    externalId: request.account_sid,
    settings: {
      ...(from ? { from } : { messaging_service_sid: request.messaging_service_sid! }),
      ...(request.api_base_url ? { api_base_url: apiBaseUrl } : {}),
    },
    secrets: { auth_token: request.auth_token },
  };
}

/** D94: `svc channel connect --type sms`. */
export const smsCli: Channel["connect"]["cli"] = {
  usage: "--account-sid AC... --auth-token T (--from +E164 | --messaging-service-sid MG...) [--api-base-url URL]",
  options: [
    { flag: "account-sid", arg: "AC...", param: "account_sid", help: "the Twilio account SID" },
    { flag: "auth-token", arg: "T", param: "auth_token", help: "the account's auth token (Basic auth, and the key of X-Twilio-Signature)" },
    { flag: "from", arg: "ADDRESS", param: "from", help: "the account's sending number, +E164" },
    {
      flag: "messaging-service-sid",
      arg: "MG...",
      param: "messaging_service_sid",
      help: "a Messaging Service that picks the sender, instead of --from",
    },
    { flag: "api-base-url", arg: "URL", param: "api_base_url", help: `the Twilio API base (${DEFAULT_TWILIO_API_BASE_URL} by default)` },
  ],
  request(values) {
    const from = values.optional("from");
    const service = values.optional("messaging-service-sid");
    if ((from === undefined) === (service === undefined)) values.fail("--type sms needs either --from or --messaging-service-sid.");
    return {
      account_sid: values.required("account-sid"),
      auth_token: values.required("auth-token"),
      from,
      messaging_service_sid: service,
      api_base_url: values.optional("api-base-url"),
    };
  },
  connected: (channel) => ({
    json: { channel_id: channel.channelId, status_callback_url: channel.callbackUrl },
    text: [
      `Connected SMS channel ${channel.channelId} (Twilio account ${channel.externalId}) to workspace ${channel.workspace}.`,
      "",
      "Each message is sent with its status callback URL. In Twilio's console, set the sending number's",
      `(or the Messaging Service's) incoming message webhook to ${channel.callbackUrl} (HTTP POST).`,
    ],
  }),
};
