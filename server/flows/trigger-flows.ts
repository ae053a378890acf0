import { flatten, satisfies } from "../contact-events/conditions.ts";
import type { Triggered } from "../contact-events/contact-event-schemas.ts";
import { lockContacts, readContacts } from "../contacts/get-contact.ts";
import type { Contact } from "../contacts/contact-schemas.ts";
import type { Database, Handle } from "../db/client.ts";
import { jsonRows } from "../db/json-rows.ts";
import type { Columns } from "../db/rows.ts";
import { newId } from "../lib/ids.ts";
import { placeholderValues, render, type Scalar } from "../messaging/render.ts";
import { currentCause, type Cause } from "../observability/request-context.ts";
import { completeJob, type Job } from "../outbox/jobs.ts";
import { wakePipeline } from "../outbox/wake.ts";
import { insertRuns, runSlot, type RunInsert } from "./enroll-contact.ts";
import type { Trigger } from "./flow-schemas.ts";

// D62: a recorded contact event enrolls its contact in every active flow its name triggers
// whose `where` its properties satisfy, in the event's mode, through the enrollment's own
// statement (`insertRuns`): D18's no re-entry and D66's keys hold as for
// POST /flows/{flow_id}/enroll. The event's `triggered` says what each flow did (D82). This
// happens in the transaction that records the event (record-contact-event.ts), so that
// POST /events answers what its event triggered, and GET /events says the same.

/** An active flow triggered by an event name, on its current version. */
export type TriggeredFlow = { id: string; workspace_id: string; event: string; version: number; allow_reentry: boolean; trigger: Trigger };

/**
 * The active flows of the workspace of the parameter `workspace` that the event names of the
 * parameter `names` (a text array) trigger, on their current versions, held for share until
 * the runs are written (a status change waits), in id order. The caller locks the events'
 * contacts first, as enrollments do. One workspace a statement (D87: Citus locks rows only in
 * a statement it routes to one workspace's shard).
 */
export const triggeredFlows = (workspace: string, names: string) => `
  SELECT f.id, f.workspace_id, f.trigger_event AS event, f.version, f.allow_reentry, v.trigger FROM flows f
  JOIN flow_versions v ON v.workspace_id = f.workspace_id AND v.flow_id = f.id AND v.version = f.version
  WHERE f.workspace_id = ${workspace} AND f.trigger_event = ANY(${names}::text[]) AND f.status = 'active'
  ORDER BY f.id FOR SHARE OF f`;

/** An event as recorded, with the request that recorded it (D54: its runs carry it on). */
export type TriggeringEvent = Columns<"contact_events", "id" | "workspace_id" | "contact_id" | "name"> & {
  mode: "test" | "live";
  properties: Record<string, unknown>;
  cause: Cause;
};

/** D66: a key is at most 128 characters; a key that renders empty is no key. */
const MAX_KEY = 128;

// Each event's `triggered`, written once its runs are ($1: id, workspace and entries as JSON rows).
const SET_TRIGGERED = `
  UPDATE contact_events e SET triggered = t.triggered
  FROM ${jsonRows("$1", "id text, workspace_id text, triggered jsonb")} t
  WHERE e.workspace_id = t.workspace_id AND e.id = t.id`;

/**
 * Enrolls the events' contacts in the `flows` (`triggeredFlows`, read in the caller's
 * transaction after it locked the contacts) that each event triggers, and records on each
 * event what every matching flow did: `{ flow_id, run_id, key }` for the run it started, or
 * `{ flow_id, reason: "already_enrolled", key }` when D18 or D66 refused a run (one started
 * earlier in the batch included). Answers each event's entries by its id, in flow id order
 * (an event no flow matched has none), and how many runs started: the caller wakes the
 * pipeline once they are committed.
 */
export async function enrollTriggered(
  sql: Handle,
  events: readonly TriggeringEvent[],
  flows: readonly TriggeredFlow[],
  at: Date,
): Promise<{ triggered: Map<string, Triggered[]>; started: number }> {
  const matches = events.flatMap((event) =>
    flows
      .filter((f) => f.workspace_id === event.workspace_id && f.event === event.name)
      .filter((f) => !f.trigger.where || satisfies(f.trigger.where, event.properties))
      .map((flow) => ({ event, flow })),
  );
  if (matches.length === 0) return { triggered: new Map(), started: 0 };
  const keyed = matches.filter((m) => m.flow.trigger.key);
  const contacts: Map<string, Contact> = keyed.length
    ? await readContacts(
        sql,
        keyed.map((m) => ({ workspaceId: m.event.workspace_id, id: m.event.contact_id })),
      )
    : new Map();
  const runs: RunInsert[] = [];
  const taken = new Set<string>(); // the slots of runs written earlier in the batch (`runSlot`)
  const outcomes = matches.map(({ event, flow }) => {
    const variables: Record<string, Scalar> = flatten(event.properties, "event");
    const contact = contacts.get(event.contact_id);
    const key =
      flow.trigger.key && contact
        ? render(flow.trigger.key, placeholderValues(variables, contact), { missing: "empty" }).slice(0, MAX_KEY) || null
        : null;
    const slot = runSlot({ flowId: flow.id, contactId: event.contact_id, mode: event.mode, key });
    if ((key !== null || !flow.allow_reentry) && taken.has(slot)) return { event, flow, key, runId: null };
    taken.add(slot);
    const run: RunInsert = {
      id: newId("run"),
      workspace_id: event.workspace_id,
      flow_id: flow.id,
      version: flow.version,
      contact_id: event.contact_id,
      mode: event.mode,
      variables,
      key,
      entered: { event_id: event.id },
      at,
      reentry: flow.allow_reentry,
      cause: event.cause,
    };
    runs.push(run);
    return { event, flow, key, runId: run.id };
  });
  const written = await insertRuns(sql, runs);
  const triggered = new Map<string, Triggered[]>();
  for (const { event, flow, key, runId } of outcomes) {
    const entry: Triggered =
      runId !== null && written.has(runId)
        ? { flow_id: flow.id, run_id: runId, key }
        : { flow_id: flow.id, reason: "already_enrolled", key };
    triggered.set(event.id, [...(triggered.get(event.id) ?? []), entry]);
  }
  const workspaceOf = new Map(events.map((e) => [e.id, e.workspace_id]));
  await sql(SET_TRIGGERED, [
    JSON.stringify([...triggered].map(([id, entries]) => ({ id, workspace_id: workspaceOf.get(id), triggered: entries }))),
  ]);
  return { triggered, started: written.size };
}

/**
 * A `contact_event.process` job: an event recorded before triggers ran with its recording
 * (jobs queued by an earlier version of the service) is enrolled here, once.
 */
export async function triggerFlows(database: Database, job: Job<"contact_event.process">, owner: string): Promise<string> {
  const outcome = await database.transaction(async (sql) => {
    const [event] = await sql<Omit<TriggeringEvent, "cause">>(
      `SELECT id, workspace_id, contact_id, mode::text AS mode, name, properties FROM contact_events WHERE id = $1`,
      [job.subject_id],
    );
    const contact = event && (await lockContacts(sql, [{ workspaceId: event.workspace_id, id: event.contact_id }])).get(event.contact_id);
    let started = 0;
    if (event && contact) {
      const flows = await sql<TriggeredFlow>(triggeredFlows("$1", "$2"), [event.workspace_id, [event.name]]);
      ({ started } = await enrollTriggered(sql, [{ ...event, cause: currentCause() }], flows, new Date()));
    }
    // The runs commit only with the job's end: a job whose lease was lost enrolls nothing.
    if (!(await completeJob(sql, job, owner))) throw new Error("lease lost");
    return !event || !contact ? "skipped" : started > 0 ? "enrolled" : "nothing";
  });
  if (outcome === "enrolled") wakePipeline();
  return outcome;
}
