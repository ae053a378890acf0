import { z } from "zod";
import { ZEnrollRequest } from "../../../flows/flow-schemas.ts";
import { ZFlowRun } from "../../../flows/flow-views.ts";
import type { Meta } from "../../trpc.ts";

export const enrollContactMeta: Meta = {
  openapi: {
    method: "POST",
    path: "/flows/{flow_id}/enroll",
    tags: ["Flows"],
    summary: "Enroll a contact in a flow",
    description:
      "Starts a run at the flow's first step, in the key's mode (D40). `to` finds or creates the contact (D15). " +
      "A flow that is not `active`: 409. A contact with an active run in the flow: 409, `param` = `to`, unless the flow allows re-entry (D18). " +
      "`variables` fill the run's placeholders (D17). Honours `Idempotency-Key` (D27, D28).",
    protect: true,
  },
  scope: "flows:enroll",
  idempotent: true,
  successStatus: 201,
};

export const ZEnrollContactRequest = ZEnrollRequest.extend({ flow_id: z.string().max(64).describe("Prefix `flow_`.") });
export { ZFlowRun as ZEnrollContactResponse };
