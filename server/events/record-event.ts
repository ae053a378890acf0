import type { Handle } from "../db/client.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import type { Mode } from "../keys/scopes.ts";
import { newId } from "../lib/ids.ts";
import type { EventName } from "./event-names.ts";
import { currentCause, type Cause } from "../observability/request-context.ts";
import { fanOut } from "../webhooks/deliveries.ts";
import { insertJobsOf, type DerivedLease } from "../outbox/jobs.ts";

// The event log (D31): one row per event, written by the caller's transaction together with
// the change that causes it. This module holds the table's one INSERT, and every statement
// that records events also writes their webhook deliveries and jobs (`fanOut`, D30), so an
// event and its deliveries commit together. Webhook delivery reads these rows. The same
// statement wakes the flow runs waiting for an outcome of a message (D63) that an event
// reports (`wakeRuns`), since every report of a message passes here.

export type NewEvent = {
  workspaceId: string;
  mode: Mode;
  name: EventName;
  data: Prisma.InputJsonObject;
  contactId?: string | null;
  at?: Date;
};

/**
 * The CTE `name` of a larger statement that inserts the events `select` gives, its columns in
 * this order: `id, workspace_id, name, mode ("KeyMode"), data, contact_id, created_at,
 * request_id, traceparent`; followed by the CTEs of their webhook fan-out. Ids made in SQL
 * come from `newIdSql("event")`. The statement's other parts may read `name` (`id`,
 * `workspace_id`, `name`, `request_id`, `traceparent`), and `<name>_j`, the webhook jobs written
 * (`lease`: claimed by this process's worker, `Handoff.leaseOf`).
 */
export function insertEventsFrom(name: string, select: string, lease?: DerivedLease): string {
  return `${name} AS (
    INSERT INTO events (id, workspace_id, name, mode, data, contact_id, created_at, request_id, traceparent)
    ${select}
    RETURNING id, workspace_id, name, mode, data, contact_id, request_id, traceparent
  ),
  ${fanOut(name, lease)},
  ${wakeRuns(name)}`;
}

/**
 * D63: the runs that wait for an outcome of a message get a `flow.step` job due now when an
 * event of the statement reports one: `mensagem.entregue`, `mensagem.lida` or
 * `mensagem.falhou` of the message they wait on (by the index on `wait_message_id`, within the
 * event's workspace: D87, one shard), or
 * `mensagem.recebida` from their contact for `replied` (by the contact's runs). The run engine
 * checks the outcome against the run's wait as it then is, so a job that finds nothing to do
 * ends without acting.
 */
function wakeRuns(name: string): string {
  const woken = `${name}_woken`;
  return `${woken} AS (
    SELECT r.id AS run_id, r.workspace_id, r.position, e.data->>'id' AS message_id, e.name AS event, e.request_id, e.traceparent
    FROM ${name} e JOIN flow_runs r ON r.workspace_id = e.workspace_id AND r.wait_message_id = e.data->>'id'
    WHERE e.name IN ('mensagem.entregue', 'mensagem.lida', 'mensagem.falhou') AND r.status = 'active'
    UNION ALL
    SELECT r.id, r.workspace_id, r.position, e.data->>'id', e.name, e.request_id, e.traceparent
    FROM ${name} e JOIN flow_runs r ON r.workspace_id = e.workspace_id AND r.contact_id = e.contact_id AND r.mode = e.mode
    WHERE e.name = 'mensagem.recebida' AND r.status = 'active' AND r.wait_message_id IS NOT NULL AND r.wait->>'outcome' = 'replied'
  ),
  ${name}_wake AS (
    ${insertJobsOf("flow.step", woken, {
      subjectId: "run_id",
      workspaceId: "workspace_id",
      payload:
        "jsonb_build_object('position', position, 'wake', jsonb_build_object('by', 'message', 'message_id', message_id, 'status', event))",
      requestId: "request_id",
      traceparent: "traceparent",
    })}
  )`;
}

/**
 * The CTEs that insert events passed as one JSON array (`eventRows`, parameter `param`), each
 * with its cause, under the name `name` (`insertEventsFrom`). A part of larger statements too
 * (the run engine's last one, `advance-run.ts`).
 */
export function eventsPart(name: string, param: string): string {
  return insertEventsFrom(
    name,
    `SELECT id, workspace_id, name, mode::"KeyMode", data, contact_id, created_at, request_id, traceparent
     FROM json_to_recordset(${param}::json) AS e(id text, workspace_id text, name text, mode text, data jsonb, contact_id text,
       created_at timestamptz, request_id text, traceparent text)`,
  );
}

const INSERT_EVENTS = `
  WITH ${eventsPart("e", "$1")}
  SELECT count(*) FROM e`;

/** An event in the caller's transaction (a Prisma one through `prismaHandle`), with the current cause; its id. */
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
  const rows = eventRows(events);
  await sql(INSERT_EVENTS, [JSON.stringify(rows)]);
  return rows.map((r) => r.id);
}

/** The rows of `eventsPart` for events, each with a new id (its JSON parameter once stringified). */
export function eventRows(events: readonly (NewEvent & { cause: Cause })[]) {
  return events.map((e) => ({
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
}
