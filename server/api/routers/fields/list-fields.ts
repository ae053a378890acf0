import { listFields as list } from "../../../fields/list-fields.ts";
import { requestUrl } from "../../request-url.ts";
import { workspaceProcedure } from "../../trpc.ts";
import { listFieldsMeta, ZListFieldsRequest, ZListFieldsResponse } from "./list-fields.types.ts";

export const listFields = workspaceProcedure
  .meta(listFieldsMeta)
  .input(ZListFieldsRequest)
  .output(ZListFieldsResponse)
  .query(async ({ ctx, input }) => {
    const { items, link } = await list(ctx.db, ctx.caller.workspaceId, input, requestUrl(ctx, "/custom-fields"));
    if (link) ctx.responseHeaders.Link = link;
    return items;
  });
