import type { Handle } from "../db/client.ts";
import { newIdSql } from "../lib/ids.ts";
import { insertJobsOf, type DerivedLease } from "../outbox/jobs.ts";

// The webhook deliveries table's one INSERT. An event becomes one delivery and one
// `webhook.deliver` job per enabled endpoint of its workspace that subscribes to it (its
// `events`, or all when none are named), written by the statement that records the event
// (server/events/record-event.ts), so the event and its deliveries commit together whichever
// path recorded it. A delivery's job carries the event's cause (D54).

const insertInto = (rows: string) =>
  `INSERT INTO webhook_deliveries (id, workspace_id, endpoint_id, event_id, event_name, body, next_attempt_at, created_at, updated_at)
    ${rows}`;

/**
 * The CTEs `<name>_d` (the deliveries) and `<name>_j` (their jobs, returned) that fan out the
 * events a CTE of the same statement inserted, `name`, returning `id, workspace_id, name,
 * request_id, traceparent`: one more part of that statement, no trigger and no statement of
 * its own. `lease`: the jobs are written claimed by this process's worker (`Handoff.leaseOf`).
 */
export function fanOut(name: string, lease?: DerivedLease): string {
  return `${name}_d AS (
    ${insertInto(`SELECT ${newIdSql("delivery")}, ev.workspace_id, ep.id, ev.id, ev.name, NULL, now(), now(), now()
    FROM ${name} ev JOIN webhook_endpoints ep ON ep.workspace_id = ev.workspace_id AND ep.enabled
      AND (ep.events IS NULL OR cardinality(ep.events) = 0 OR ev.name = ANY (ep.events))
    RETURNING id, workspace_id, endpoint_id, event_id`)}
  ),
  ${name}_j AS (
    ${insertJobsOf(
      "webhook.deliver",
      `${name}_d d JOIN ${name} ev ON ev.workspace_id = d.workspace_id AND ev.id = d.event_id`,
      {
        subjectId: "d.id",
        workspaceId: "d.workspace_id",
        payload: "jsonb_build_object('endpoint_id', d.endpoint_id)",
        requestId: "ev.request_id",
        traceparent: "ev.traceparent",
      },
      lease,
    )}
  )`;
}

/** The one delivery of a test event (`sendTestEvent`), its body given: not in the event log. */
export type TestDelivery = { id: string; workspaceId: string; endpointId: string; eventId: string; eventName: string; body: string };

/** Writes a test event's delivery in the caller's transaction, due now. */
export async function insertTestDelivery(sql: Handle, d: TestDelivery): Promise<void> {
  await sql(insertInto("VALUES ($1, $2, $3, $4, $5, $6, now(), now(), now())"), [
    d.id,
    d.workspaceId,
    d.endpointId,
    d.eventId,
    d.eventName,
    d.body,
  ]);
}
