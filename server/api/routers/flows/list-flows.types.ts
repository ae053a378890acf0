import { z } from "zod";
import { ZFlow } from "../../../flows/flow-views.ts";
import { ZPageQuery } from "../../../lib/pagination.ts";
import type { Meta } from "../../trpc.ts";

export const listFlowsMeta: Meta = {
  openapi: {
    method: "GET",
    path: "/flows",
    tags: ["Flows"],
    summary: "List active flows",
    description: 'Only `active` flows, ordered by `created_at` then `id`; a `Link` header with `rel="next"` when more exist.',
    protect: true,
  },
  scope: "flows:read",
};

export const ZListFlowsRequest = ZPageQuery;
export const ZListFlowsResponse = z.array(ZFlow);
