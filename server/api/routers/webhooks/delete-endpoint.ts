import { deleteEndpoint as remove } from "../../../webhooks/delete-endpoint.ts";
import { ZEndpointId } from "../../../webhooks/webhook-schemas.ts";
import { workspaceProcedure } from "../../trpc.ts";

export const deleteEndpoint = workspaceProcedure
  .meta({ roles: ["admin"] })
  .input(ZEndpointId)
  .mutation(({ ctx, input }) => remove(ctx.db, ctx.caller.workspaceId, input.endpoint_id, ctx.caller));
