import { sendTestEvent as send } from "../../../webhooks/send-test-event.ts";
import { ZSendTestEventRequest } from "../../../webhooks/webhook-schemas.ts";
import { workspaceProcedure } from "../../trpc.ts";

export const sendTestEvent = workspaceProcedure
  .meta({ roles: ["admin"] })
  .input(ZSendTestEventRequest)
  .mutation(({ ctx, input }) => send(ctx.db, ctx.caller.workspaceId, input));
