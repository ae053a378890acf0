import type { ChannelType, ServerChannel } from "./channel.ts";
import { emailServer } from "./email/server.ts";
import { smsServer } from "./sms/server.ts";
import { whatsappServer } from "./whatsapp/server.ts";

// Each channel type's server-only parts (`<type>/server.ts`: its provider's client), beside
// `registry.ts` and checked for completeness as it is: a type without its parts fails `tsc`
// here. Kept apart because the dashboard's bundles reach `registry.ts` (the schemas import it)
// and these parts use Node's modules (sockets, TLS, crypto). Tests point a channel at local
// fakes through its own settings (api_base_url, smtp_url), so there is nothing to swap here.
const SERVER_CHANNELS = { whatsapp: whatsappServer, email: emailServer, sms: smsServer } satisfies Record<ChannelType, ServerChannel>;

/** The provider client that sends a channel type's messages. */
export function providerFor(type: ChannelType): ServerChannel["client"] {
  return SERVER_CHANNELS[type].client;
}
