import { z } from "zod";
import type { Columns } from "../db/rows.ts";
import { ZSingleRecipient } from "../messaging/message-schemas.ts";
import { ZEventName } from "./conditions.ts";

// D61: what POST /events takes and what an Event looks like.

/** D61: an event's properties are at most 8 KiB as JSON. */
export const MAX_PROPERTIES_BYTES = 8 * 1024;
/** D84: nesting counts the `properties` object as the first level. */
export const MAX_PROPERTIES_DEPTH = 5;

/** How deep a JSON value nests (a scalar 0, `{}` 1, `{ "a": [] }` 2), stopping once past `max`. */
function depthOf(value: unknown, max: number): number {
  if (value === null || typeof value !== "object") return 0;
  let deepest = 0;
  for (const child of Object.values(value)) {
    deepest = Math.max(deepest, depthOf(child, max));
    if (deepest >= max) break;
  }
  return 1 + deepest;
}

export const ZProperties = z
  .record(z.string().max(200), z.unknown())
  .superRefine((value, ctx) => {
    if (Buffer.byteLength(JSON.stringify(value)) > MAX_PROPERTIES_BYTES) {
      ctx.addIssue({ code: "custom", message: `must be at most ${MAX_PROPERTIES_BYTES} bytes as JSON` });
    } else if (depthOf(value, MAX_PROPERTIES_DEPTH + 1) > MAX_PROPERTIES_DEPTH) {
      ctx.addIssue({ code: "custom", message: `may nest at most ${MAX_PROPERTIES_DEPTH} levels, counting properties itself` });
    }
  })
  .describe("What happened, as JSON: at most 8 KiB, nesting at most 5 levels counting this object.");

export const ZRecordEventRequest = z.strictObject({
  name: ZEventName.describe("What the contact did, such as `order_paid`: `^[a-z][a-z0-9_.]{0,63}$`.").meta({ example: "order_paid" }),
  to: ZSingleRecipient,
  properties: ZProperties.optional().meta({ example: { order_id: "ord_1042", total: 149.9 } }),
  timestamp: z.iso
    .datetime({ offset: true, error: "must be an ISO 8601 timestamp, such as 2026-11-21T10:00:00Z" })
    .optional()
    .describe("When it happened (default: now); at most 5 minutes ahead.")
    .meta({ example: "2026-11-27T10:00:00Z" }),
  id: z
    .string()
    .min(1)
    .max(128, "must be at most 128 characters")
    .optional()
    .describe("Your own id for the event: a second event with the same id within 24 hours is not recorded again.")
    .meta({ example: "ord_1042:paid" }),
});
export type RecordEventRequest = z.output<typeof ZRecordEventRequest>;

export const ZTriggered = z
  .object({
    flow_id: z.string(),
    run_id: z.string().optional().describe("The run the event started (prefix `run_`)."),
    reason: z
      .enum(["already_enrolled"])
      .optional()
      .describe(
        "Why no run started: `already_enrolled` when the contact already has an active run in the flow with the same key " +
          "(or without a key, in a flow that does not allow re-entry).",
      ),
    key: z
      .string()
      .nullable()
      .optional()
      .describe("The run's key, from the trigger's `key` (null without one): the key of the run started, or of the run that refused it."),
  })
  .meta({
    id: "ContactEventTrigger",
    example: { flow_id: "flow_0mwq2b8Xk1Lr4Yd7Qe9Tz3", run_id: "run_0mwz2A3s4D5f6G7h8J9k0L", key: "inv_2026_0042" },
  });
export type Triggered = z.infer<typeof ZTriggered>;

export const ZContactEvent = z
  .object({
    id: z.string().describe("Prefix `cev_`.").meta({ example: "cev_0mwz1Q2w3E4r5T6y7U8i9O" }),
    name: z.string().meta({ example: "order_paid" }),
    contact_id: z.string().meta({ example: "ct_0mwq18yo3jJFvnIzUvqf4q" }),
    properties: z.record(z.string(), z.unknown()).meta({ example: { order_id: "ord_1042", total: 149.9 } }),
    timestamp: z.string().meta({ example: "2026-11-27T10:00:00.000Z" }),
    created_at: z.string().describe("When it was recorded: the time that orders events and that `lookback` counts from."),
    triggered: z
      .array(ZTriggered)
      .describe(
        "Every active flow whose trigger the event matched (its name and `where`), with the run it started or why none did. " +
          "Final in the answer of `POST /events`: the runs start as the event is recorded.",
      ),
  })
  .meta({ id: "ContactEvent" });
export type ContactEventView = z.infer<typeof ZContactEvent>;

export type ContactEventRow = Columns<"contact_events", "id" | "name" | "contact_id" | "timestamp" | "created_at"> & {
  properties: Record<string, unknown>;
  triggered: Triggered[];
};

export const CONTACT_EVENT_COLUMNS = "e.id, e.name, e.contact_id, e.properties, e.timestamp, e.created_at, e.triggered";

export const contactEventView = (e: ContactEventRow): ContactEventView => ({
  id: e.id,
  name: e.name,
  contact_id: e.contact_id,
  properties: e.properties,
  timestamp: new Date(e.timestamp).toISOString(),
  created_at: new Date(e.created_at).toISOString(),
  triggered: e.triggered,
});
