import { twilioSmsClient } from "../../providers/twilio-sms.ts";
import type { ServerChannel } from "../channel.ts";

export const smsServer = { client: twilioSmsClient } satisfies ServerChannel;
