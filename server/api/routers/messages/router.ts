import { router } from "../../trpc.ts";
import { getMessage } from "./get-message.ts";
import { sendMessage } from "./send-message.ts";

export const messagesRouter = router({ send: sendMessage, get: getMessage });
