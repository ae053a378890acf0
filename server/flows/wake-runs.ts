import type { Handle } from "../db/client.ts";
import { jsonRows } from "../db/json-rows.ts";
import { rowsPerWorkspace } from "../lib/per-workspace.ts";
import { insertJobsOf } from "../outbox/jobs.ts";

// D63, D64: a contact event wakes the runs that listen for it. Recording the event
// (contact-events/record-contact-event.ts) calls `wakeRunsForEvents` in its transaction, after
// the events are written: each active run of the event's contact in its mode that waits for
// the event's name (D63) or has it as its version's goal not yet reached (D64) gets a
// `flow.step` job due now naming the event. The run engine (advance-run.ts) checks the match
// against the run as it then is, so a job that finds nothing to do ends without acting.

/** A contact event as written, with the cause its jobs carry (D54). */
export type WrittenEvent = {
  id: string;
  workspace_id: string;
  contact_id: string;
  mode: string;
  name: string;
  request_id: string | null;
  traceparent: string | null;
};

// The events ($1) of one workspace ($2) and the runs they wake, one job per (run, event), in one
// statement; the ids of the events that woke a run. Every join names the workspace, and the runs
// are read in $2 alone (D87: Citus then reads that workspace's shard, not every shard).
const WAKE = `
  WITH k AS (
    SELECT * FROM ${jsonRows("$1", `id text, workspace_id text, contact_id text, mode "KeyMode", name text, request_id text, traceparent text`)} k
  ), woken AS (
    SELECT DISTINCT ON (r.id, k.id) r.id AS run_id, r.workspace_id, r.position, k.id AS event_id, k.request_id, k.traceparent,
      CASE WHEN r.wait_event = k.name THEN 'event' ELSE 'goal' END AS by
    FROM k
    JOIN flow_runs r ON r.workspace_id = $2 AND r.contact_id = k.contact_id AND r.workspace_id = k.workspace_id AND r.status = 'active' AND r.mode = k.mode
    JOIN flow_versions v ON v.workspace_id = r.workspace_id AND v.flow_id = r.flow_id AND v.version = r.version
    WHERE r.wait_event = k.name OR (v.goal->>'event' = k.name AND r.converted_at IS NULL)
  ), w AS (
    ${insertJobsOf("flow.step", "woken", {
      subjectId: "run_id",
      workspaceId: "workspace_id",
      payload: "jsonb_build_object('position', position, 'wake', jsonb_build_object('by', by, 'event_id', event_id))",
      requestId: "request_id",
      traceparent: "traceparent",
    })}
  )
  SELECT DISTINCT event_id FROM woken`;

/**
 * Gives each run the `events` wake (see above) its job, in the caller's transaction, one
 * statement per workspace; the ids of the events that woke at least one run.
 */
export async function wakeRunsForEvents(sql: Handle, events: readonly WrittenEvent[]): Promise<Set<string>> {
  const rows = await rowsPerWorkspace(
    events,
    (e) => e.workspace_id,
    (workspaceId, ofWorkspace) => sql<{ event_id: string }>(WAKE, [JSON.stringify(ofWorkspace), workspaceId]),
  );
  return new Set(rows.map((r) => r.event_id));
}
