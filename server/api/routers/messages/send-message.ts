import { sendMessage as send } from "../../../messaging/send-message.ts";
import { workspaceProcedure } from "../../trpc.ts";
import { sendMessageMeta, ZSendMessageRequest, ZSendMessageResponse } from "./send-message.types.ts";

export const sendMessage = workspaceProcedure
  .meta(sendMessageMeta)
  .input(ZSendMessageRequest)
  .output(ZSendMessageResponse)
  .mutation(({ ctx, input }) =>
    send(ctx.db, ctx.actor, input, {
      idempotency: ctx.idempotency,
      apiKeyId: ctx.actor.principal.kind === "key" ? ctx.actor.principal.keyId : null,
    }),
  );
