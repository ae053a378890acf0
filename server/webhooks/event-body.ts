// The body of a delivery (D31). Built from the event row the same way on every attempt, so
// every retry and replay carries the same `id` and the same content.

export type EventRow = { id: string; name: string; mode: string; workspace_id: string; data: unknown; created_at: Date };

export function eventBody(event: EventRow): string {
  return JSON.stringify({
    id: event.id,
    event: event.name,
    // Standard Webhooks' name for the same field (D55).
    type: event.name,
    timestamp: event.created_at.toISOString(),
    namespace: event.workspace_id,
    mode: event.mode,
    data: event.data,
  });
}
