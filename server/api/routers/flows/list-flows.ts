import { listFlowPage } from "../../../flows/list-flows.ts";
import { requestUrl } from "../../request-url.ts";
import { workspaceProcedure } from "../../trpc.ts";
import { listFlowsMeta, ZListFlowsRequest, ZListFlowsResponse } from "./list-flows.types.ts";

export const listFlows = workspaceProcedure
  .meta(listFlowsMeta)
  .input(ZListFlowsRequest)
  .output(ZListFlowsResponse)
  .query(async ({ ctx, input }) => {
    const { items, link } = await listFlowPage(ctx.db, ctx.caller.workspaceId, input, requestUrl(ctx, "/flows", { status: input.status }));
    if (link) ctx.responseHeaders.Link = link;
    return items;
  });
