import type { DashboardChannel } from "../dashboard-channel.ts";
import { SmsMessageContent } from "./message-content.tsx";

export const sms = { MessageContent: SmsMessageContent } satisfies DashboardChannel;
