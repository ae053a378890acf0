import { listContactEvents } from "../../../contact-events/list-contact-events.ts";
import { requestUrl } from "../../request-url.ts";
import { workspaceProcedure } from "../../trpc.ts";
import { listEventsMeta, ZListEventsRequest, ZListEventsResponse } from "./list-events.types.ts";

export const listEvents = workspaceProcedure
  .meta(listEventsMeta)
  .input(ZListEventsRequest)
  .output(ZListEventsResponse)
  .query(async ({ ctx, input }) => {
    const { limit, after, ...filter } = input;
    const { items, link } = await listContactEvents(ctx.db, ctx.caller, filter, { limit, after }, requestUrl(ctx, "/events", filter));
    if (link) ctx.responseHeaders.Link = link;
    // A key reads its own mode's events only: the Event does not repeat it.
    return items.map(({ mode: _, ...event }) => event);
  });
