import type { Handle } from "../db/client.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import type { Mode } from "../keys/scopes.ts";
import { newId } from "../lib/ids.ts";
import type { EventName } from "./event-names.ts";
import { causeColumns, causeParams } from "../observability/request-context.ts";

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

export async function recordEvent(tx: Prisma.TransactionClient, event: NewEvent): Promise<string> {
  const id = newId("event");
  await tx.event.create({
    data: {
      id,
      workspaceId: event.workspaceId,
      name: event.name,
      mode: event.mode,
      data: event.data,
      contactId: event.contactId ?? null,
      createdAt: event.at ?? new Date(),
      ...causeColumns(),
    },
  });
  return id;
}

/** The same row through the driver, for transactions written in SQL (the pipeline's, flow runs'). */
export async function insertEvent(sql: Handle, event: NewEvent): Promise<string> {
  const id = newId("event");
  await sql(
    `INSERT INTO events (id, workspace_id, name, mode, data, contact_id, created_at, request_id, traceparent)
     VALUES ($1, $2, $3, $4::"KeyMode", $5::jsonb, $6, $7, $8, $9)`,
    [
      id,
      event.workspaceId,
      event.name,
      event.mode,
      JSON.stringify(event.data),
      event.contactId ?? null,
      event.at ?? new Date(),
      ...causeParams(),
    ],
  );
  return id;
}
