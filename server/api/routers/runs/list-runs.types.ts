import { z } from "zod";
import { RUN_STATUSES } from "../../../flows/flow-schemas.ts";
import { ZRun } from "../../../flows/run-views.ts";
import { ZPageQuery } from "../../../lib/pagination.ts";
import type { Meta } from "../../trpc.ts";

export const listRunsMeta: Meta = {
  openapi: {
    method: "GET",
    path: "/flows/{flow_id}/runs",
    tags: ["Flows"],
    summary: "List a flow's runs",
    description:
      "The flow's runs of the key's mode, oldest first, optionally filtered; `GET /runs/{run_id}` gives one with its history. " +
      'When more exist, a `Link` header with `rel="next"` gives the next page with the same filters.',
    protect: true,
  },
  scope: "flows:read",
};

export const ZListRunsRequest = ZPageQuery.extend({
  flow_id: z.string().max(64).describe("Prefix `flow_`."),
  status: z.enum(RUN_STATUSES).optional().describe("Only runs in this status."),
  contact_id: z.string().max(64).optional().describe("Only this contact's runs. Prefix `ct_`."),
  key: z.string().max(128).optional().describe("Only runs with this key."),
});

export const ZListRunsResponse = z.array(ZRun);
