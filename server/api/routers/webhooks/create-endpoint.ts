import { createEndpoint as create } from "../../../webhooks/create-endpoint.ts";
import { ZCreateEndpointRequest } from "../../../webhooks/webhook-schemas.ts";
import { workspaceProcedure } from "../../trpc.ts";

/** Admins only; the secret is in this response and nowhere else, ever (D30). */
export const createEndpoint = workspaceProcedure
  .meta({ roles: ["admin"] })
  .input(ZCreateEndpointRequest)
  .mutation(({ ctx, input }) => create(ctx.db, ctx.caller.workspaceId, input, ctx.caller));
