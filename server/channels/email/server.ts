import { smtp } from "../../providers/smtp.ts";
import type { ServerChannel } from "../channel.ts";

export const emailServer = { client: smtp } satisfies ServerChannel;
