import { ZSendTestRequest } from "../../../channels/channel-schemas.ts";
import { sendTestMessage } from "../../../channels/send-test-message.ts";
import { workspaceProcedure } from "../../trpc.ts";

/** Admins only: one real provider call, answered with the provider's outcome; nothing recorded. */
export const sendTest = workspaceProcedure
  .meta({ roles: ["admin"] })
  .input(ZSendTestRequest)
  .mutation(({ ctx, input }) => sendTestMessage(ctx.db, ctx.caller.workspaceId, input));
