import type { Channel, ChannelType } from "./channel.ts";
import { email } from "./email/index.ts";
import { sms } from "./sms/index.ts";
import { whatsapp } from "./whatsapp/index.ts";

// Every channel type of the schema's `ChannelType`, each with every part of `Channel`: a type
// added to the schema without its module, or a module missing a part, fails `tsc` here. The
// order is the contract's: the shapes built from the channels' parts (a send request's content
// objects, the Message's fields, the connect request's variants) list them in this order.
const REGISTRY = { whatsapp, email, sms } satisfies Record<ChannelType, Channel>;

/** Each module with its own parts' types (its zod schemas), for the shapes assembled from them. */
export type ChannelModules = typeof REGISTRY;

export const CHANNELS: Readonly<Record<ChannelType, Channel>> = REGISTRY;

/** Every channel type, in the registry's order. */
export const CHANNEL_TYPES = Object.keys(REGISTRY) as ChannelType[];

/** The module of a channel type. */
export function channelOf(type: ChannelType): Channel {
  return CHANNELS[type];
}

/** One key a channel type, in the registry's order, each `of` its module (the send request's `whatsapp`, `email`, `sms`). */
export function perChannel<T>(of: (channel: Channel) => T): Record<ChannelType, T> {
  return Object.fromEntries(CHANNEL_TYPES.map((type) => [type, of(CHANNELS[type])])) as Record<ChannelType, T>;
}

type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/** Every module's `part` (an object of fields) merged into one, in the registry's order. */
export function mergedParts<P extends "messageFields" | "usageFields">(part: P): Intersection<ChannelModules[ChannelType][P]> {
  return Object.assign({}, ...CHANNEL_TYPES.map((type) => REGISTRY[type][part])) as Intersection<ChannelModules[ChannelType][P]>;
}
