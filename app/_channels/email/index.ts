import type { DashboardChannel } from "../dashboard-channel.ts";
import { EmailMessageContent } from "./message-content.tsx";
import { emailStep } from "./step-fields.tsx";

export const email = { step: emailStep, MessageContent: EmailMessageContent } satisfies DashboardChannel;
