import { listFlowRuns } from "../../../flows/read-runs.ts";
import { requestUrl } from "../../request-url.ts";
import { workspaceProcedure } from "../../trpc.ts";
import { listRunsMeta, ZListRunsRequest, ZListRunsResponse } from "./list-runs.types.ts";

export const listRuns = workspaceProcedure
  .meta(listRunsMeta)
  .input(ZListRunsRequest)
  .output(ZListRunsResponse)
  .query(async ({ ctx, input }) => {
    const { limit, after, flow_id, ...filter } = input;
    const url = requestUrl(ctx, `/flows/${encodeURIComponent(flow_id)}/runs`, filter);
    const { items, link } = await listFlowRuns(ctx.db, ctx.caller, flow_id, filter, { limit, after }, url);
    if (link) ctx.responseHeaders.Link = link;
    return items;
  });
