import { z } from "zod";
import { ZMessage } from "../../../messaging/message-schemas.ts";
import type { Meta } from "../../trpc.ts";

export const cancelMessageMeta: Meta = {
  openapi: {
    method: "POST",
    path: "/messages/{id}/cancel",
    tags: ["Messages"],
    summary: "Cancel a message",
    description:
      "Cancels a message that has not been handed to the provider yet (a scheduled message, or one still waiting in the queue): " +
      "it becomes `canceled`, the event `mensagem.cancelada` is sent, and it no longer counts against the daily and monthly limits. " +
      "A message already handed to the provider (or being handed over at this moment) answers `409` `message_not_cancelable`.",
    protect: true,
  },
  scope: "messages:send",
  errors: ["message_not_cancelable"],
};

export const ZCancelMessageRequest = z.strictObject({ id: z.string().describe("Prefix `msg_`.") });
export { ZMessage as ZCancelMessageResponse };
