import type { DashboardChannel } from "../dashboard-channel.ts";
import { smsForm } from "./connect-form.tsx";
import { SmsMessageContent } from "./message-content.tsx";
import { smsStep } from "./step-fields.tsx";

export const sms = { form: smsForm, step: smsStep, MessageContent: SmsMessageContent } satisfies DashboardChannel<"sms">;
