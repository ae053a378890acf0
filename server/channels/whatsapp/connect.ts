import type { z } from "zod";
import { DEFAULT_GRAPH_API_BASE_URL } from "../../providers/provider.ts";
import type { ConnectedRow, ConnectKit } from "../channel.ts";
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
