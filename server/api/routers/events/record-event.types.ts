import { ZContactEvent, ZRecordEventRequest } from "../../../contact-events/contact-event-schemas.ts";
import type { Meta } from "../../trpc.ts";

export const recordEventMeta: Meta = {
  openapi: {
    method: "POST",
    path: "/events",
    tags: ["Events"],
    summary: "Record a contact event",
    description:
      "Records something a contact did, such as `order_paid`, and answers `202` with the Event. `to` finds or creates the contact. " +
      "Each active flow whose trigger matches the event enrolls the contact before the answer: `triggered` names every such flow " +
      "with the run it started or why it started none (`already_enrolled`), and `GET /events` shows the same. " +
      "After the answer, a run that waits for the event wakes and a run whose flow has it as its goal converts. " +
      "An `id` already used in the last 24 hours answers the first event with " +
      "`Idempotent-Replayed: true` and records nothing. Events belong to the key's mode.",
    protect: true,
  },
  scope: "events:write",
  idempotent: true,
  successStatus: 202,
  errors: ["resource_missing", "invalid_phone", "invalid_email"],
};

export { ZContactEvent as ZRecordEventResponse, ZRecordEventRequest };
