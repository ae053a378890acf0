import { flatten, satisfies } from "../contact-events/conditions.ts";
import { lockContacts } from "../contacts/get-contact.ts";
import type { Database } from "../db/client.ts";
import type { Columns } from "../db/rows.ts";
import { newId } from "../lib/ids.ts";
import { placeholderValues, render, type Scalar } from "../messaging/render.ts";
import { currentCause } from "../observability/request-context.ts";
import { completeJob, type Job } from "../outbox/jobs.ts";
import { wakePipeline } from "../outbox/wake.ts";
import { insertRuns, runSlot, type RunInsert } from "./enroll-contact.ts";
import type { Trigger } from "./flow-schemas.ts";

// D62: a contact event's `contact_event.process` job enrolls its contact in every active flow
// its name triggers whose `where` its properties satisfy, in the event's mode, through the
// enrollment's own statement (`insertRuns`): D18's no re-entry and D66's keys hold as for
// POST /flows/{flow_id}/enroll. The event's `triggered` says what each flow did (D82).

type EventRow = Columns<"contact_events", "id" | "workspace_id" | "contact_id" | "mode" | "name"> & {
  properties: Record<string, unknown>;
};

type TriggeredFlow = { id: string; version: number; allow_reentry: boolean; trigger: Trigger };

// The active flows its name triggers, on their current versions, held for share until the
// runs are written (a status change waits), in id order.
const TRIGGERED_FLOWS = `
  SELECT f.id, f.version, f.allow_reentry, v.trigger FROM flows f
  JOIN flow_versions v ON v.flow_id = f.id AND v.version = f.version
  WHERE f.workspace_id = $1 AND f.trigger_event = $2 AND f.status = 'active'
  ORDER BY f.id FOR SHARE OF f`;

/** D66: a key is at most 128 characters; a key that renders empty is no key. */
const MAX_KEY = 128;

export async function triggerFlows(database: Database, job: Job<"contact_event.process">, owner: string): Promise<string> {
  const outcome = await database.transaction(async (sql) => {
    const [event] = await sql<EventRow>(
      `SELECT id, workspace_id, contact_id, mode::text AS mode, name, properties FROM contact_events WHERE id = $1`,
      [job.subject_id],
    );
    const contact = event && (await lockContacts(sql, [{ workspaceId: event.workspace_id, id: event.contact_id }])).get(event.contact_id);
    if (!event || !contact) {
      if (!(await completeJob(sql, job, owner))) throw new Error("lease lost");
      return "skipped";
    }
    const flows = await sql<TriggeredFlow>(TRIGGERED_FLOWS, [event.workspace_id, event.name]);
    const variables: Record<string, Scalar> = flatten(event.properties, "event");
    const values = placeholderValues(variables, contact);
    const at = new Date();
    const runs: RunInsert[] = [];
    const slots = new Set<string>();
    const triggered: { flow_id: string; run_id?: string; reason?: "already_enrolled" }[] = [];
    for (const flow of flows) {
      if (flow.trigger.where && !satisfies(flow.trigger.where, event.properties)) continue;
      const key = flow.trigger.key ? render(flow.trigger.key, values, { missing: "empty" }).slice(0, MAX_KEY) || null : null;
      const slot = runSlot({ flowId: flow.id, contactId: contact.id, mode: event.mode, key });
      if (slots.has(slot)) continue;
      slots.add(slot);
      runs.push({
        id: newId("run"),
        workspace_id: event.workspace_id,
        flow_id: flow.id,
        version: flow.version,
        contact_id: contact.id,
        mode: event.mode,
        variables,
        key,
        entered: { event_id: event.id },
        at,
        reentry: flow.allow_reentry,
        cause: currentCause(),
      });
    }
    const written = await insertRuns(sql, runs);
    for (const run of runs) {
      triggered.push(written.has(run.id) ? { flow_id: run.flow_id, run_id: run.id } : { flow_id: run.flow_id, reason: "already_enrolled" });
    }
    if (triggered.length) await sql(`UPDATE contact_events SET triggered = $2::jsonb WHERE id = $1`, [event.id, JSON.stringify(triggered)]);
    // The runs commit only with the job's end: a job whose lease was lost enrolls nothing.
    if (!(await completeJob(sql, job, owner))) throw new Error("lease lost");
    return written.size > 0 ? "enrolled" : "nothing";
  });
  if (outcome === "enrolled") wakePipeline();
  return outcome;
}
