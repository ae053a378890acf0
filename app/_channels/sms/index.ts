import type { DashboardChannel } from "../dashboard-channel.ts";
import { SmsMessageContent } from "./message-content.tsx";
import { smsStep } from "./step-fields.tsx";

export const sms = { step: smsStep, MessageContent: SmsMessageContent } satisfies DashboardChannel;
