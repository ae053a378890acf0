import { z } from "zod";
import { FLOW_STATUSES } from "../../../flows/flow-schemas.ts";
import { ZFlow } from "../../../flows/flow-views.ts";
import { ZPageQuery } from "../../../lib/pagination.ts";
import type { Meta } from "../../trpc.ts";

export const listFlowsMeta: Meta = {
  openapi: {
    method: "GET",
    path: "/flows",
    tags: ["Flows"],
    summary: "List flows",
    description:
      'The flows of one `status` (`active` when none is given), ordered by `created_at` then `id`; a `Link` header with `rel="next"` when more exist.',
    protect: true,
  },
  scope: "flows:read",
};

export const ZListFlowsRequest = ZPageQuery.extend({
  status: z.enum(FLOW_STATUSES).default("active").describe("Which flows to list (default `active`)."),
});
export const ZListFlowsResponse = z.array(ZFlow);
