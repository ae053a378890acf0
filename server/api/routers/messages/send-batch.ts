import { errorDocUrl } from "../../../lib/error-catalog.ts";
import { AppError } from "../../../lib/errors.ts";
import { sendBatch as send } from "../../../messaging/send-batch.ts";
import { workspaceProcedure } from "../../trpc.ts";
import { sendBatchMeta, ZSendBatchRequest, ZSendBatchResponse } from "./send-batch.types.ts";

export const sendBatch = workspaceProcedure
  .meta(sendBatchMeta)
  .input(ZSendBatchRequest)
  .output(ZSendBatchResponse)
  .mutation(async ({ ctx, input }) => {
    const items = await send(ctx.db, ctx.caller, input.messages, { apiKeyId: ctx.caller.kind === "key" ? ctx.caller.keyId : null });
    return {
      data: items.map((item) =>
        item instanceof AppError
          ? {
              error: {
                type: item.type,
                code: item.code,
                message: item.message,
                param: item.param,
                doc_url: errorDocUrl(ctx.appUrl, item.code),
              },
            }
          : item,
      ),
    };
  });
