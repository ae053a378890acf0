import { listDeliveries as list } from "../../../webhooks/list-deliveries.ts";
import { ZListDeliveriesRequest } from "../../../webhooks/webhook-schemas.ts";
import { workspaceProcedure } from "../../trpc.ts";

/** Admins and support staff (read-only for support). */
export const listDeliveries = workspaceProcedure
  .input(ZListDeliveriesRequest)
  .query(({ ctx, input }) => list(ctx.db, ctx.caller.workspaceId, input));
