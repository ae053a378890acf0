import type { Handle } from "../db/client.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import type { Mode } from "../keys/scopes.ts";
import { newId } from "../lib/ids.ts";
import type { EventName } from "./event-names.ts";
import { currentCause, type Cause } from "../observability/request-context.ts";

// The event log (D31): one row per event, written by the caller's transaction together with
// the change that causes it. Webhook delivery reads these rows.

export type NewEvent = {
  workspaceId: string;
  mode: Mode;
  name: EventName;
  data: Prisma.InputJsonObject;
  contactId?: string | null;
  at?: Date;
};

/** An event in a Prisma transaction (the same row and statement as `insertEvents`); its id. */
export async function recordEvent(tx: Prisma.TransactionClient, event: NewEvent): Promise<string> {
  const [id] = await insertEvents((text, values = []) => tx.$queryRawUnsafe(text, ...values), [{ ...event, cause: currentCause() }]);
  return id!;
}

/** The same row through the driver, for transactions written in SQL (the pipeline's, flow runs'). */
export async function insertEvent(sql: Handle, event: NewEvent): Promise<string> {
  const [id] = await insertEvents(sql, [{ ...event, cause: currentCause() }]);
  return id!;
}

/**
 * Many events in one statement, each with its own cause (D54): the request or job that made
 * it, when one transaction writes the work of several (a batch of flow runs). Their ids, in order.
 */
export async function insertEvents(sql: Handle, events: readonly (NewEvent & { cause: Cause })[]): Promise<string[]> {
  if (events.length === 0) return [];
  const rows = events.map((e) => ({
    id: newId("event"),
    workspace_id: e.workspaceId,
    name: e.name,
    mode: e.mode,
    data: e.data,
    contact_id: e.contactId ?? null,
    created_at: e.at ?? new Date(),
    request_id: e.cause.requestId,
    traceparent: e.cause.traceparent,
  }));
  await sql(
    `INSERT INTO events (id, workspace_id, name, mode, data, contact_id, created_at, request_id, traceparent)
     SELECT id, workspace_id, name, mode::"KeyMode", data, contact_id, created_at, request_id, traceparent
     FROM json_to_recordset($1::json) AS e(id text, workspace_id text, name text, mode text, data jsonb, contact_id text,
       created_at timestamptz, request_id text, traceparent text)`,
    [JSON.stringify(rows)],
  );
  return rows.map((r) => r.id);
}
