import { getMessageOrThrow } from "../../../messaging/get-message.ts";
import { workspaceProcedure } from "../../trpc.ts";
import { getMessageMeta, ZGetMessageRequest, ZGetMessageResponse } from "./get-message.types.ts";

export const getMessage = workspaceProcedure
  .meta(getMessageMeta)
  .input(ZGetMessageRequest)
  .output(ZGetMessageResponse)
  .query(({ ctx, input }) => getMessageOrThrow(ctx.db, ctx.caller, input.id));
