import { z } from "zod";
import { ZReachability } from "../../../messaging/reachability.ts";
import type { Meta } from "../../trpc.ts";

export const getReachabilityMeta: Meta = {
  openapi: {
    method: "GET",
    path: "/contacts/{id}/reachability",
    tags: ["Contacts"],
    summary: "Check whether a message would reach a contact now",
    description:
      "Answers per channel whether a message would go out now and every reason it would not, with the reasons a journey's skipped send step records: " +
      "`no_address`, `opted_out`, `recipient_suppressed`, `whatsapp_window_closed`, `no_channel`, `quota_reached`, `frequency_capped`. " +
      "Also the contact's 24-hour WhatsApp window, its time zone and, with `flow_id`, that flow's quiet hours (its caps count too). " +
      "Answered in the key's mode (a test key sees its test suppressions and a simulated window). Changes nothing. " +
      "`POST /messages` with `dry_run: true` checks one message, content included.",
    protect: true,
  },
  scope: "contacts:read",
};

export const ZGetReachabilityRequest = z.object({
  id: z.string().max(64).describe("Prefix `ct_`."),
  flow_id: z
    .string()
    .max(64)
    .optional()
    .describe("Answer for a send step of this flow: its quiet hours and its own frequency caps apply too. Prefix `flow_`."),
});

export { ZReachability as ZGetReachabilityResponse };
