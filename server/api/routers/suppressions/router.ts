import { z } from "zod";
import { addSuppression, listSuppressions, removeSuppression } from "../../../suppressions/suppressions.ts";
import { ZSuppression, SUPPRESSION_REASONS } from "../../../suppressions/suppression-schemas.ts";
import { ZPageQuery } from "../../../lib/pagination.ts";
import { requestUrl } from "../../request-url.ts";
import { router, workspaceProcedure } from "../../trpc.ts";
import {
  addSuppressionMeta,
  listSuppressionsMeta,
  removeSuppressionMeta,
  ZAddSuppressionRequest,
  ZListSuppressionsRequest,
  ZListSuppressionsResponse,
  ZRemoveSuppressionRequest,
} from "./suppressions.types.ts";

/** A path parameter as given: the REST door hands it on still percent-encoded (`ana%40example.com`). */
function pathValue(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

// D72, D85: GET/POST /suppressions, DELETE /suppressions/{email}, and the dashboard's page.
export const suppressionsRouter = router({
  list: workspaceProcedure
    .meta(listSuppressionsMeta)
    .input(ZListSuppressionsRequest)
    .output(ZListSuppressionsResponse)
    .query(async ({ ctx, input }) => {
      const { items, link } = await listSuppressions(ctx.db, ctx.caller, input, requestUrl(ctx, "/suppressions"));
      if (link) ctx.responseHeaders.Link = link;
      return items;
    }),
  add: workspaceProcedure
    .meta(addSuppressionMeta)
    .input(ZAddSuppressionRequest)
    .output(ZSuppression)
    .mutation(async ({ ctx, input }) => {
      const { suppression, created } = await addSuppression(ctx.db, ctx.caller, input);
      if (!created && ctx.response) ctx.response.status = 200;
      return suppression;
    }),
  remove: workspaceProcedure
    .meta(removeSuppressionMeta)
    .input(ZRemoveSuppressionRequest)
    .output(ZSuppression)
    .mutation(({ ctx, input }) => removeSuppression(ctx.db, ctx.caller, pathValue(input.email))),
  /** Dashboard only: a page of the live list, searched by address. */
  search: workspaceProcedure
    .input(
      ZPageQuery.extend({
        after: z.string().min(1).optional(),
        q: z.string().max(320).default(""),
        reason: z.enum(SUPPRESSION_REASONS).optional(),
        limit: z.number().int().min(1).max(100).default(25),
      }),
    )
    .query(async ({ ctx, input }) => {
      const { items, next } = await listSuppressions(ctx.db, ctx.caller, { ...input, search: input.q || undefined }, null);
      return { items, next };
    }),
});
