import { rotateSecret as rotate } from "../../../webhooks/rotate-secret.ts";
import { ZEndpointId } from "../../../webhooks/webhook-schemas.ts";
import { workspaceProcedure } from "../../trpc.ts";

/** Admins only; the new secret is in this response and nowhere else (D32). */
export const rotateSecret = workspaceProcedure
  .meta({ roles: ["admin"] })
  .input(ZEndpointId)
  .mutation(({ ctx, input }) => rotate(ctx.db, ctx.caller.workspaceId, input.endpoint_id, ctx.caller));
