import { listTemplates as list } from "../../../whatsapp/list-templates.ts";
import { requestUrl } from "../../request-url.ts";
import { workspaceProcedure } from "../../trpc.ts";
import { listTemplatesMeta, ZListTemplatesRequest, ZListTemplatesResponse } from "./list-templates.types.ts";

export const listTemplates = workspaceProcedure
  .meta(listTemplatesMeta)
  .input(ZListTemplatesRequest)
  .output(ZListTemplatesResponse)
  .query(async ({ ctx, input }) => {
    const { limit, after, ...filter } = input;
    const { items, link } = await list(
      ctx.db,
      ctx.caller.workspaceId,
      filter,
      { limit, after },
      requestUrl(ctx, "/whatsapp/templates", filter),
    );
    if (link) ctx.responseHeaders.Link = link;
    return items;
  });
