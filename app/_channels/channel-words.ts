import type { Message } from "@/server/messaging/message-schemas.ts";
import type { ChannelWords } from "./words-type.ts";
import { email } from "./email/words.ts";
import { sms } from "./sms/words.ts";
import { whatsapp } from "./whatsapp/words.ts";

export type ChannelType = Message["channel"];
export type { ChannelWords, FaultWords, UsageCount } from "./words-type.ts";

// Issue 49: what the dashboard says of each channel, one file a channel
// (app/_channels/<type>/words.ts), registered here by type so `tsc` fails on a type without
// them. Plain TypeScript whose values are imported by relative paths, apart from the components of
// app/_channels/channels.ts: the API tests read a message's history through the same sentences
// (messages/_components/message-sentences.ts) outside the dashboard's bundles.

export const CHANNEL_WORDS_OF: { readonly [T in ChannelType]: ChannelWords } = { whatsapp, email, sms };

/** Every channel type, in the registry's order (the contract's): the dashboard's lists of channels. */
export const CHANNEL_TYPES = Object.keys(CHANNEL_WORDS_OF) as ChannelType[];

/** A contact's opt-out of a channel type, as the API names it (D38: `opt_out_<type>`). */
export const optOutColumn = <T extends ChannelType>(type: T) => `opt_out_${type}` as const;

/** One value a channel type, `of` its words (a table of labels). */
export function wordsTable<T>(of: (words: ChannelWords) => T): Record<ChannelType, T> {
  return Object.fromEntries(Object.entries(CHANNEL_WORDS_OF).map(([type, words]) => [type, of(words)])) as Record<ChannelType, T>;
}
