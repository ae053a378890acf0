import { z } from "zod";
import { ZRunWithHistory } from "../../../flows/run-views.ts";
import type { Meta } from "../../trpc.ts";

export const getRunMeta: Meta = {
  openapi: {
    method: "GET",
    path: "/runs/{run_id}",
    tags: ["Flows"],
    summary: "Retrieve a run",
    description:
      "A contact's run in a flow, of the key's mode, with its history: each step it sent or skipped (and why), what it waited for, " +
      "what woke it, each path it took, its conversion and its end.",
    protect: true,
  },
  scope: "flows:read",
};

export const ZGetRunRequest = z.object({ run_id: z.string().max(64).describe("Prefix `run_`.") });
export { ZRunWithHistory as ZGetRunResponse };
