"use client";

import { DASHBOARD_CHANNELS } from "@/app/_channels/channels.ts";
import type { Message } from "@/server/messaging/message-schemas.ts";

/** The message's content as sent, by its channel's part (app/_channels/<type>/message-content.tsx). */
export function MessageContent({ message, content }: { message: Message; content: unknown }) {
  const { MessageContent: ChannelContent } = DASHBOARD_CHANNELS[message.channel];
  return <ChannelContent content={content} message={message} />;
}
