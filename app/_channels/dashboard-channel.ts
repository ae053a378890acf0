import type { ReactNode } from "react";
import type { Message } from "@/server/messaging/message-schemas.ts";

export type ChannelType = Message["channel"];

// Issue 49: a channel's parts of the dashboard, one folder a channel (app/_channels/<type>/),
// registered by type in app/_channels/channels.ts as the server's modules are in
// server/channels/registry.ts.

export interface DashboardChannel {
  /** The message page's content: the content as sent (placeholders filled, stored as JSON), and the message. */
  MessageContent(props: { content: unknown; message: Message }): ReactNode;
}
