import { updateEndpoint as update } from "../../../webhooks/update-endpoint.ts";
import { ZUpdateEndpointRequest } from "../../../webhooks/webhook-schemas.ts";
import { workspaceProcedure } from "../../trpc.ts";

export const updateEndpoint = workspaceProcedure
  .meta({ roles: ["admin"] })
  .input(ZUpdateEndpointRequest)
  .mutation(({ ctx, input }) => update(ctx.db, ctx.caller.workspaceId, input, ctx.caller));
