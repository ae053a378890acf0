import { listTags as list } from "../../../tags/list-tags.ts";
import { workspaceProcedure } from "../../trpc.ts";
import { requestUrl } from "../../request-url.ts";
import { listTagsMeta, ZListTagsRequest, ZListTagsResponse } from "./list-tags.types.ts";

export const listTags = workspaceProcedure
  .meta(listTagsMeta)
  .input(ZListTagsRequest)
  .output(ZListTagsResponse)
  .query(async ({ ctx, input }) => {
    const { items, link } = await list(ctx.db, ctx.caller.workspaceId, input, requestUrl(ctx, "/tags"));
    if (link) ctx.responseHeaders.Link = link;
    return items;
  });
