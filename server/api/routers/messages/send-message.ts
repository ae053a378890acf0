import { dryRunMessage, sendMessage as send } from "../../../messaging/send-message.ts";
import { workspaceProcedure } from "../../trpc.ts";
import { sendMessageMeta, ZSendMessageRequest, ZSendMessageResponse } from "./send-message.types.ts";

export const sendMessage = workspaceProcedure
  .meta(sendMessageMeta)
  .input(ZSendMessageRequest)
  .output(ZSendMessageResponse)
  .mutation(({ ctx, input }) => {
    if (input.dry_run) {
      // D71: checked, not sent: answered 200, with nothing written.
      if (ctx.response) ctx.response.status = 200;
      return dryRunMessage(ctx.db, ctx.caller, input);
    }
    return send(ctx.db, ctx.caller, input, {
      idempotency: ctx.idempotency,
      apiKeyId: ctx.caller.kind === "key" ? ctx.caller.keyId : null,
    });
  });
