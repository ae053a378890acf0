import type { ProviderClient } from "./provider.ts";
import type { ChannelType } from "../generated/prisma/enums.ts";
import { smtp } from "./smtp.ts";
import { twilioSmsClient } from "./twilio-sms.ts";
import { whatsappCloud } from "./whatsapp-cloud.ts";

// The provider client of each channel type. Tests point a channel at local fakes through its
// own settings (api_base_url, smtp_url), so there is nothing to swap here.
const CLIENTS: Record<ChannelType, ProviderClient> = { whatsapp: whatsappCloud, email: smtp, sms: twilioSmsClient };

export function providerFor(type: ChannelType): ProviderClient {
  return CLIENTS[type];
}
