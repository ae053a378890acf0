import { z } from "zod";
import { ZFlowStats } from "../../../flows/flow-stats.ts";
import type { Meta } from "../../trpc.ts";

export const flowStatsMeta: Meta = {
  openapi: {
    method: "GET",
    path: "/flows/{flow_id}/stats",
    tags: ["Flows"],
    summary: "Retrieve a flow's statistics",
    description:
      "The flow's runs of the key's mode by status and its conversions, and for each version its runs used, each step by its " +
      "position: runs that reached it, wait in it, were stopped or failed in it, sends skipped by reason, messages by status, and " +
      "the runs that took each path of a branch, split or wait_for. Read from counters kept as runs advance, so it stays fast " +
      "however many runs the flow has.",
    protect: true,
  },
  scope: "flows:read",
};

export const ZFlowStatsRequest = z.object({ flow_id: z.string().max(64).describe("Prefix `flow_`.") });
export { ZFlowStats as ZFlowStatsResponse };
