import { cancelMessage as cancel } from "../../../messaging/cancel-message.ts";
import { workspaceProcedure } from "../../trpc.ts";
import { cancelMessageMeta, ZCancelMessageRequest, ZCancelMessageResponse } from "./cancel-message.types.ts";

export const cancelMessage = workspaceProcedure
  .meta(cancelMessageMeta)
  .input(ZCancelMessageRequest)
  .output(ZCancelMessageResponse)
  .mutation(({ ctx, input }) => cancel(ctx.db, ctx.caller, input.id));
