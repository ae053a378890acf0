import type { Channel, ChannelType } from "./channel.ts";
import { email } from "./email/index.ts";
import { sms } from "./sms/index.ts";
import { whatsapp } from "./whatsapp/index.ts";

// Every channel type of the schema's `ChannelType`, each with every part of `Channel`: a type
// added to the schema without its module, or a module missing a part, fails `tsc` here.
const REGISTRY = { whatsapp, email, sms } satisfies Record<ChannelType, Channel>;

export const CHANNELS: Readonly<Record<ChannelType, Channel>> = REGISTRY;

/** The module of a channel type. */
export function channelOf(type: ChannelType): Channel {
  return CHANNELS[type];
}
