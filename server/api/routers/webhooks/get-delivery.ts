import { getDelivery as get } from "../../../webhooks/list-deliveries.ts";
import { ZDeliveryId } from "../../../webhooks/webhook-schemas.ts";
import { workspaceProcedure } from "../../trpc.ts";

export const getDelivery = workspaceProcedure.input(ZDeliveryId).query(({ ctx, input }) => get(ctx.db, ctx.caller.workspaceId, input));
