import type { z } from "zod";
import { DEFAULT_GRAPH_API_BASE_URL } from "../../providers/provider.ts";
import type { Channel, ConnectedRow, ConnectKit } from "../channel.ts";
import type { ZConnectWhatsAppRequest } from "./contract.ts";

/** A WhatsApp Cloud API number's row: its phone number id, API base and account, and its three secrets. */
export async function prepareWhatsApp(request: z.output<typeof ZConnectWhatsAppRequest>, kit: ConnectKit): Promise<ConnectedRow> {
  const apiBaseUrl = request.api_base_url ?? DEFAULT_GRAPH_API_BASE_URL;
  // Meta's own host needs no check (and none that depends on DNS being reachable here).
  if (apiBaseUrl !== DEFAULT_GRAPH_API_BASE_URL) await kit.assertAllowedHost(new URL(apiBaseUrl).hostname, "api_base_url");
  return {
    name: request.name ?? `WhatsApp ${request.phone_number_id}`,
    externalId: request.phone_number_id,
    settings: { api_base_url: apiBaseUrl, ...(request.waba_id ? { waba_id: request.waba_id } : {}) },
    secrets: { access_token: request.access_token, app_secret: request.app_secret, verify_token: request.verify_token },
    syncsTemplates: Boolean(request.waba_id),
  };
}

/** `svc channel connect --type whatsapp`. */
export const whatsappCli: Channel["connect"]["cli"] = {
  usage: "--phone-number-id ID --access-token T --app-secret S --verify-token V [--waba-id ID] [--api-base-url URL]",
  options: [
    {
      flag: "phone-number-id",
      arg: "ID",
      param: "phone_number_id",
      help: "the Cloud API phone number id (status reports are routed by it)",
    },
    { flag: "access-token", arg: "T", param: "access_token", help: "the access token sent as bearer to the Graph API" },
    { flag: "app-secret", arg: "S", param: "app_secret", help: "the Meta app secret that signs webhooks (X-Hub-Signature-256)" },
    { flag: "verify-token", arg: "V", param: "verify_token", help: "the token Meta's webhook handshake must present" },
    { flag: "waba-id", arg: "ID", param: "waba_id", help: "the WhatsApp Business account id; its message templates are synced from it" },
    {
      flag: "api-base-url",
      arg: "URL",
      param: "api_base_url",
      help: `the Graph API base with its version (${DEFAULT_GRAPH_API_BASE_URL} by default)`,
    },
  ],
  request: (values) => ({
    phone_number_id: values.required("phone-number-id"),
    access_token: values.required("access-token"),
    app_secret: values.required("app-secret"),
    verify_token: values.required("verify-token"),
    api_base_url: values.optional("api-base-url"),
    waba_id: values.optional("waba-id"),
  }),
  connected: (channel) => ({
    json: { channel_id: channel.channelId, callback_url: channel.callbackUrl },
    text: [
      `Connected WhatsApp channel ${channel.channelId} (phone number id ${channel.externalId}) to workspace ${channel.workspace}.`,
      "",
      `In Meta's app settings, set the webhook callback URL to ${channel.callbackUrl}`,
      "with the same verify token, and subscribe to the messages field.",
    ],
  }),
};
