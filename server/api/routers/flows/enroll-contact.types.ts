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
      "Starts a run at the flow's first step, in the key's mode. `to` finds or creates the contact. " +
      "A flow that is not `active`: 409. A contact with an active run in the flow: 409, `param` = `to`, unless the flow allows re-entry. " +
      "`variables` fill the run's placeholders. Honours `Idempotency-Key`.",
    protect: true,
  },
  scope: "flows:enroll",
  idempotent: true,
  successStatus: 201,
  errors: ["flow_not_active", "already_enrolled", "invalid_phone", "invalid_email"],
};

export const ZEnrollContactRequest = ZEnrollRequest.extend({ flow_id: z.string().max(64).describe("Prefix `flow_`.") });
export { ZFlowRun as ZEnrollContactResponse };
