import { whatsappCloud } from "../../providers/whatsapp-cloud.ts";
import type { ServerChannel } from "../channel.ts";

export const whatsappServer = { client: whatsappCloud } satisfies ServerChannel;
