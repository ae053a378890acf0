import type { Columns } from "../db/rows.ts";
// The body of a delivery (D31). Built from the event row the same way on every attempt, so
// every retry and replay carries the same `id` and the same content.

export type EventRow = Columns<"events", "id" | "name" | "mode" | "workspace_id" | "data" | "created_at">;

/** `test`: a sample body sent by "Send test event" (D77), marked `"test": true`. */
export function eventBody(event: EventRow, opts: { test?: true } = {}): string {
  return JSON.stringify({
    id: event.id,
    event: event.name,
    // Standard Webhooks' name for the same field (D55).
    type: event.name,
    timestamp: event.created_at.toISOString(),
    namespace: event.workspace_id,
    mode: event.mode,
    data: event.data,
    ...opts,
  });
}
