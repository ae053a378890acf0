import type { DashboardChannel } from "../dashboard-channel.ts";
import { WhatsAppMessageContent } from "./message-content.tsx";
import { whatsappStep } from "./step-fields.tsx";

export const whatsapp = { step: whatsappStep, MessageContent: WhatsAppMessageContent } satisfies DashboardChannel;
