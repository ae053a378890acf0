import { contactReachability } from "../../../messaging/reachability.ts";
import { workspaceProcedure } from "../../trpc.ts";
import { getReachabilityMeta, ZGetReachabilityRequest, ZGetReachabilityResponse } from "./get-reachability.types.ts";

export const getReachability = workspaceProcedure
  .meta(getReachabilityMeta)
  .input(ZGetReachabilityRequest)
  .output(ZGetReachabilityResponse)
  .query(({ ctx, input }) => contactReachability(ctx.db, ctx.caller, input.id, { flowId: input.flow_id }));
