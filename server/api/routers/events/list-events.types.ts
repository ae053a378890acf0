import { z } from "zod";
import { ZContactEvent } from "../../../contact-events/contact-event-schemas.ts";
import { ZEventName } from "../../../contact-events/conditions.ts";
import { ZPageQuery } from "../../../lib/pagination.ts";
import type { Meta } from "../../trpc.ts";

export const listEventsMeta: Meta = {
  openapi: {
    method: "GET",
    path: "/events",
    tags: ["Events"],
    summary: "List contact events",
    description:
      "The events recorded with keys of this key's mode, newest first (`created_at` then `id`, descending), optionally filtered. " +
      'When more exist, a `Link` header with `rel="next"` gives the next page with the same filters.',
    protect: true,
  },
  scope: "events:read",
};

const ZTimestamp = z.iso
  .datetime({ offset: true, error: "must be an ISO 8601 timestamp, such as 2026-11-21T10:00:00Z" })
  .transform((s) => new Date(s));

export const ZListEventsRequest = ZPageQuery.extend({
  contact_id: z.string().max(64).optional().describe("Only this contact's events. Prefix `ct_`."),
  name: ZEventName.optional().describe("Only events of this name."),
  created_after: ZTimestamp.optional().describe("Only events recorded after this time."),
  created_before: ZTimestamp.optional().describe("Only events recorded before this time."),
});

export const ZListEventsResponse = z.array(ZContactEvent);
