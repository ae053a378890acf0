import type { DashboardChannel } from "../dashboard-channel.ts";
import { EmailMessageContent } from "./message-content.tsx";

export const email = { MessageContent: EmailMessageContent } satisfies DashboardChannel;
