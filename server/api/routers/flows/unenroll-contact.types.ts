import { z } from "zod";
import { ZUnenrollRequest } from "../../../flows/flow-schemas.ts";
import { ZFlowRun } from "../../../flows/flow-views.ts";
import type { Meta } from "../../trpc.ts";

export const unenrollContactMeta: Meta = {
  openapi: {
    method: "POST",
    path: "/flows/{flow_id}/unenroll",
    tags: ["Flows"],
    summary: "Unenroll a contact from a flow",
    description:
      "Stops the contact's active runs of the key's mode in the flow, or in every flow when `flow_id` is `all`. " +
      "Each becomes `stopped`; `reason` goes to the run and to `fluxo.parado`. A contact in no journey: 200 with `unenrolled` 0. " +
      "With `key`, only the runs with that key stop; `key` without `to` stops that key's runs of every contact. " +
      "Unknown flow: 404 `flow_id`; a recipient matching no contact: 404 on the `to` field used.",
    protect: true,
  },
  scope: "flows:enroll",
  idempotent: true,
  errors: ["invalid_phone", "invalid_email"],
};

export const ZUnenrollContactRequest = ZUnenrollRequest.extend({
  flow_id: z.string().max(64).describe("A flow id (prefix `flow_`) or `all`."),
});

export const ZUnenrollContactResponse = z
  .object({
    unenrolled: z.number().int(),
    contact_id: z.string().nullable().describe("The contact of `to`; null when only `key` was given."),
    flow_id: z.string().describe("The path value: a flow id or `all`."),
    runs: z
      .array(
        ZFlowRun.extend({
          status: z.literal("stopped"),
          reason: z.string().nullable().describe("The `reason` given, recorded on the run and in `fluxo.parado`; null without one."),
        }),
      )
      .describe("The runs stopped, each as enroll answered it (with its `key`) and the reason."),
  })
  .meta({ id: "UnenrollResult" });
