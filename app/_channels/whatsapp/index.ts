import type { DashboardChannel } from "../dashboard-channel.ts";
import { whatsappForm } from "./connect-form.tsx";
import { WhatsAppMessageContent } from "./message-content.tsx";
import { WhatsAppReachDetails } from "./reach-details.tsx";
import { whatsappStep } from "./step-fields.tsx";

export const whatsapp = {
  form: whatsappForm,
  step: whatsappStep,
  MessageContent: WhatsAppMessageContent,
  ReachDetails: WhatsAppReachDetails,
} satisfies DashboardChannel<"whatsapp">;
