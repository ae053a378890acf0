import { z } from "zod";
import { ZPageQuery } from "../../../lib/pagination.ts";
import { CHANNELS, MESSAGE_STATUSES, ZMessage } from "../../../messaging/message-schemas.ts";
import type { Meta } from "../../trpc.ts";

export const listMessagesMeta: Meta = {
  openapi: {
    method: "GET",
    path: "/messages",
    tags: ["Messages"],
    summary: "List messages",
    description:
      "The messages sent with keys of this key's mode, newest first (`created_at` then `id`, descending), optionally filtered. " +
      'When more exist, a `Link` header with `rel="next"` gives the next page with the same filters.',
    protect: true,
  },
  scope: "messages:read",
};

const ZTimestamp = z.iso
  .datetime({ offset: true, error: "must be an ISO 8601 timestamp, such as 2026-11-21T10:00:00Z" })
  .transform((s) => new Date(s));

export const ZListMessagesRequest = ZPageQuery.extend({
  status: z.enum(MESSAGE_STATUSES).optional().describe("Only messages in this status."),
  channel: z.enum(CHANNELS).optional().describe("Only messages of this channel."),
  direction: z.enum(["inbound", "outbound"]).optional().describe("`outbound` for messages sent, `inbound` for messages received."),
  contact_id: z.string().max(64).optional().describe("Only messages to or from this contact. Prefix `ct_`."),
  created_after: ZTimestamp.optional().describe("Only messages created after this time."),
  created_before: ZTimestamp.optional().describe("Only messages created before this time."),
});

export const ZListMessagesResponse = z.array(ZMessage);
