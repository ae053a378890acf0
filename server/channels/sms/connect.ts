import type { z } from "zod";
import { normalizePhone } from "../../lib/phone.ts";
import { DEFAULT_TWILIO_API_BASE_URL } from "../../providers/twilio-callback.ts";
import type { ConnectedRow, ConnectKit } from "../channel.ts";
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
