import { sendMessage as send } from "../../../messaging/send-message.ts";
import { workspaceProcedure } from "../../trpc.ts";
import { sendMessageMeta, ZSendMessageRequest, ZSendMessageResponse } from "./send-message.types.ts";

export const sendMessage = workspaceProcedure
  .meta(sendMessageMeta)
  .input(ZSendMessageRequest)
  .output(ZSendMessageResponse)
  .mutation(({ ctx, input }) =>
    send(ctx.db, ctx.caller, input, {
      idempotency: ctx.idempotency,
      apiKeyId: ctx.caller.kind === "key" ? ctx.caller.keyId : null,
    }),
  );
