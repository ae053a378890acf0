import type { DashboardChannel } from "../dashboard-channel.ts";
import { WhatsAppMessageContent } from "./message-content.tsx";

export const whatsapp = { MessageContent: WhatsAppMessageContent } satisfies DashboardChannel;
