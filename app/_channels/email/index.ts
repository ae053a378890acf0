import type { DashboardChannel } from "../dashboard-channel.ts";
import { emailForm } from "./connect-form.tsx";
import { EmailMessageContent } from "./message-content.tsx";
import { emailStep } from "./step-fields.tsx";

export const email = { form: emailForm, step: emailStep, MessageContent: EmailMessageContent } satisfies DashboardChannel<"email">;
