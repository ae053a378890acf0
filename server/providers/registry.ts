import type { ProviderClient } from "./provider.ts";
import { smtp } from "./smtp.ts";
import { whatsappCloud } from "./whatsapp-cloud.ts";

// The provider client of each channel type. Tests point a channel at local fakes through its
// own settings (api_base_url, smtp_url), so there is nothing to swap here.
const CLIENTS: Record<"whatsapp" | "email", ProviderClient> = { whatsapp: whatsappCloud, email: smtp };

export function providerFor(type: "whatsapp" | "email"): ProviderClient {
  return CLIENTS[type];
}
