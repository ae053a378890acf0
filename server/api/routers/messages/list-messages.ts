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
    // The next page keeps the filters as given.
    const given = new URLSearchParams();
    for (const [name, value] of Object.entries(filter)) {
      if (value !== undefined) given.set(name, value instanceof Date ? value.toISOString() : String(value));
    }
    const query = given.size ? `?${given.toString()}` : "";
    const { items, link } = await list(ctx.db, ctx.caller, filter, { limit, after }, requestUrl(ctx, `/messages${query}`));
    if (link) ctx.responseHeaders.Link = link;
    return items;
  });
