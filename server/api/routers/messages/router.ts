import { router } from "../../trpc.ts";
import { getMessage } from "./get-message.ts";
import { messageDetail } from "./message-detail.ts";
import { searchMessages } from "./search-messages.ts";
import { sendMessage } from "./send-message.ts";

export const messagesRouter = router({ send: sendMessage, get: getMessage, search: searchMessages, detail: messageDetail });
