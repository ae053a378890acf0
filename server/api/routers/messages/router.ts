import { router } from "../../trpc.ts";
import { cancelMessage } from "./cancel-message.ts";
import { getMessage } from "./get-message.ts";
import { listMessages } from "./list-messages.ts";
import { markRead } from "./mark-read.ts";
import { messageDetail } from "./message-detail.ts";
import { searchMessages } from "./search-messages.ts";
import { sendBatch } from "./send-batch.ts";
import { sendMessage } from "./send-message.ts";

export const messagesRouter = router({
  send: sendMessage,
  batch: sendBatch,
  cancel: cancelMessage,
  read: markRead,
  get: getMessage,
  list: listMessages,
  search: searchMessages,
  detail: messageDetail,
});
