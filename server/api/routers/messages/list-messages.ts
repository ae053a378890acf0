import { listMessages as list } from "../../../messaging/list-messages.ts";
import { requestUrl } from "../../request-url.ts";
import { workspaceProcedure } from "../../trpc.ts";
import { listMessagesMeta, ZListMessagesRequest, ZListMessagesResponse } from "./list-messages.types.ts";

export const listMessages = workspaceProcedure
  .meta(listMessagesMeta)
  .input(ZListMessagesRequest)
  .output(ZListMessagesResponse)
  .query(async ({ ctx, input }) => {
    const { limit, after, ...filter } = input;
    const { items, link } = await list(ctx.db, ctx.caller, filter, { limit, after }, requestUrl(ctx, "/messages", filter));
    if (link) ctx.responseHeaders.Link = link;
    return items;
  });
