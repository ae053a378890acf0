import type { Message } from "@/server/messaging/message-schemas.ts";

type ChannelType = Message["channel"];

// A channel's name as the dashboard writes it, one table per use, for every channel type.

/** As a label (a column, a select's option, a heading). */
export const CHANNEL_LABEL: Record<ChannelType, string> = { whatsapp: "WhatsApp", email: "E-mail", sms: "SMS" };

/** Inside a sentence. */
export const CHANNEL_WORDS: Record<ChannelType, string> = { whatsapp: "WhatsApp", email: "e-mail", sms: "SMS" };

/** With its article, as it is read aloud ("an SMS"). */
export const A_CHANNEL: Record<ChannelType, string> = { whatsapp: "a WhatsApp", email: "an e-mail", sms: "an SMS" };
