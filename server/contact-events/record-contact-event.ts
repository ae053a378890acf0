import { upsertContact } from "../contacts/upsert-contact.ts";
import { isConnectionError, type Database } from "../db/client.ts";
import { jsonRows } from "../db/json-rows.ts";
import { completeClaimsOf, keyInUse, type IdempotentEffect } from "../idempotency/idempotency.ts";
import type { CallerInWorkspace } from "../lib/caller.ts";
import { invalid } from "../lib/errors.ts";
import { groupCommitEach } from "../lib/group-commit.ts";
import { newId } from "../lib/ids.ts";
import { rowsPerWorkspace } from "../lib/per-workspace.ts";
import { resolveRecipient } from "../messaging/resolve-recipient.ts";
import { enrollTriggered, triggeredFlows, type TriggeredFlow } from "../flows/trigger-flows.ts";
import { wakeRunsForEvents } from "../flows/wake-runs.ts";
import { currentCause, type Cause } from "../observability/request-context.ts";
import { wakePipeline } from "../outbox/wake.ts";
import {
  CONTACT_EVENT_COLUMNS,
  contactEventView,
  type ContactEventRow,
  type ContactEventView,
  type RecordEventRequest,
} from "./contact-event-schemas.ts";

// POST /events (D61): an event is written in one transaction with what it does to flows
// (D62-D64), and the events that arrive together share that transaction (group commit), as
// messages do: the runs its name and properties trigger start there (trigger-flows.ts), so the
// answer's `triggered` is final; runs that wait for it or have it as their goal get a job
// (the transactional outbox), which the pipeline runs after the answer.

/** D61: a client's timestamp may be at most this far ahead of the service's clock. */
const MAX_AHEAD_MS = 5 * 60_000;

type Actor = Pick<CallerInWorkspace, "workspaceId" | "mode" | "defaultCountry">;

type NewEvent = {
  row: {
    id: string;
    workspace_id: string;
    contact_id: string;
    mode: "test" | "live";
    name: string;
    properties: Record<string, unknown>;
    timestamp: Date;
    client_id: string | null;
    created_at: Date;
    request_id: string | null;
    traceparent: string | null;
  };
  cause: Cause;
  idempotency?: IdempotentEffect;
};

/** The event recorded, or the first with its client id (`replayed`). */
export type Recorded = { event: ContactEventView; replayed: boolean };

export async function recordContactEvent(
  database: Database,
  actor: Actor,
  input: RecordEventRequest,
  idempotency?: IdempotentEffect,
): Promise<Recorded> {
  const now = new Date();
  const timestamp = input.timestamp ? new Date(input.timestamp) : now;
  if (timestamp.getTime() > now.getTime() + MAX_AHEAD_MS) {
    throw invalid("parameter_invalid", "`timestamp` may be at most 5 minutes ahead of the current time.", "timestamp");
  }
  const recipient = await resolveRecipient(database, actor, input.to);
  const contactId = recipient.exists ? recipient.contact.id : (await upsertContact(database, actor, recipient.draft)).id;
  const id = newId("contactEvent");
  const at = new Date();
  const cause = currentCause();
  const row = {
    id,
    workspace_id: actor.workspaceId,
    contact_id: contactId,
    mode: actor.mode,
    name: input.name,
    properties: input.properties ?? {},
    timestamp,
    client_id: input.id ?? null,
    created_at: at,
    request_id: cause.requestId,
    traceparent: cause.traceparent,
  };
  const recorded = await writeEvent(database, { row, cause, idempotency });
  if (idempotency && recorded.stored) idempotency.stored();
  if (recorded.queued) wakePipeline();
  return { event: recorded.event, replayed: recorded.event.id !== id };
}

// The contacts of a batch in one workspace ($1, their ids $2), locked in id order before the
// events are written, and the active flows the batch's event names in it ($3) trigger, held
// for share, in one statement; one such statement a workspace, in workspace id order (D87). The contacts are held as an enrollment holds them (enroll-contact.ts), so that
// two batches never both start a contact's run in one flow (D18, D66). A run engine batch
// that is making one of them wait for an event holds its contact for update too, so an event
// either commits before the run starts waiting (and the run's `lookback` sees it) or sees the
// waiting run when it decides whether anything listens (D63).
const LOCK = `
  WITH c AS (
    SELECT id FROM contacts WHERE workspace_id = $1 AND id = ANY($2::text[]) ORDER BY id FOR NO KEY UPDATE
  ),
  f AS (${triggeredFlows("$1", "$3")})
  SELECT (SELECT count(*) FROM c)::int AS contacts, coalesce((SELECT json_agg(f) FROM f), '[]') AS flows`;

// One statement writes a batch of events ($1): each client id is claimed for 24 hours (a
// claim older than that is taken over), an event whose client id is held by an earlier one is
// left out, and the events kept are inserted. Returns the ids written; the runs they wake are
// the flows' to find (`wakeRunsForEvents`), in the same transaction.
const INSERT_EVENTS = `
  WITH c AS (
    SELECT * FROM ${jsonRows("$1", `id text, workspace_id text, contact_id text, mode "KeyMode", name text, properties jsonb, "timestamp" timestamptz, client_id text, created_at timestamptz, request_id text, traceparent text`)} c
  ), ids AS (
    INSERT INTO contact_event_ids (workspace_id, mode, client_id, event_id, created_at)
    SELECT workspace_id, mode, client_id, id, created_at FROM c WHERE client_id IS NOT NULL
    ON CONFLICT (workspace_id, mode, client_id) DO UPDATE SET event_id = excluded.event_id, created_at = excluded.created_at
      WHERE excluded.created_at - contact_event_ids.created_at > interval '24 hours'
    RETURNING event_id
  ), kept AS (
    SELECT * FROM c WHERE client_id IS NULL OR id IN (SELECT event_id FROM ids)
  ), e AS (
    INSERT INTO contact_events (id, workspace_id, contact_id, mode, name, properties, "timestamp", client_id, created_at)
    SELECT id, workspace_id, contact_id, mode, name, properties, "timestamp", client_id, created_at FROM kept
  )
  SELECT id FROM kept`;

// The first event of each client id asked ($1: workspace, mode and client id as JSON rows).
const FIRST_EVENTS = `
  SELECT x.workspace_id, x.mode::text AS mode, x.client_id, ${CONTACT_EVENT_COLUMNS}
  FROM ${jsonRows("$1", `workspace_id text, mode "KeyMode", client_id text`)} x
  JOIN contact_event_ids i ON (i.workspace_id, i.mode, i.client_id) = (x.workspace_id, x.mode, x.client_id)
  JOIN contact_events e ON e.workspace_id = i.workspace_id AND e.id = i.event_id`;

type Written = { event: ContactEventView; queued: boolean; stored: boolean };

/**
 * Writes an event with the others that arrive meanwhile: one lock, one statement, one commit.
 * A batch that fails as a whole (but for an unreachable database) is written again event by
 * event. Two events of a batch with the same client id: the first is written, the second
 * answers it.
 */
const writeEvent = groupCommitEach(writeEvents, { alone: (err) => !isConnectionError(err), maxBatchSize: 500 });

async function writeEvents(database: Database, batch: readonly NewEvent[]): Promise<Written[]> {
  return database.transaction(async (sql) => {
    const flows = await rowsPerWorkspace(
      batch.map((n) => n.row),
      (r) => r.workspace_id,
      async (workspaceId, rows) => {
        const [locked] = await sql<{ flows: TriggeredFlow[] }>(LOCK, [
          workspaceId,
          [...new Set(rows.map((r) => r.contact_id))],
          [...new Set(rows.map((r) => r.name))],
        ]);
        return locked!.flows;
      },
    );
    const clientKey = (r: NewEvent["row"]) => `${r.workspace_id} ${r.mode} ${r.client_id}`;
    const firsts = new Map<string, NewEvent>();
    const unique = batch.filter((n) => {
      if (n.row.client_id === null) return true;
      if (firsts.has(clientKey(n.row))) return false;
      firsts.set(clientKey(n.row), n);
      return true;
    });
    const written = new Set((await sql<{ id: string }>(INSERT_EVENTS, [JSON.stringify(unique.map((n) => n.row))])).map((w) => w.id));
    // D63, D64: the runs that wait for these events, or have them as their goal, are woken.
    const woke = await wakeRunsForEvents(
      sql,
      unique.filter((n) => written.has(n.row.id)).map((n) => n.row),
    );
    const queued = new Map([...written].map((id) => [id, woke.has(id)]));
    // D62: the runs the events kept start now, in this transaction, and each event says so.
    const { triggered, started } = await enrollTriggered(
      sql,
      unique.filter((n) => queued.has(n.row.id)).map((n) => ({ ...n.row, cause: n.cause })),
      flows,
      new Date(),
    );
    const viewOf = (r: NewEvent["row"]) => contactEventView({ ...r, triggered: triggered.get(r.id) ?? [] } as unknown as ContactEventRow);
    const replays = batch.filter((n) => !queued.has(n.row.id));
    const first = new Map<string, ContactEventView>();
    if (replays.length) {
      const rows = await sql<ContactEventRow & { workspace_id: string; mode: string; client_id: string }>(FIRST_EVENTS, [
        JSON.stringify(replays.map((n) => ({ workspace_id: n.row.workspace_id, mode: n.row.mode, client_id: n.row.client_id }))),
      ]);
      for (const r of rows) first.set(`${r.workspace_id} ${r.mode} ${r.client_id}`, contactEventView(r));
    }
    const results = batch.map((n): Written => {
      if (queued.has(n.row.id)) return { event: viewOf(n.row), queued: queued.get(n.row.id)! || started > 0, stored: false };
      const earlier = first.get(clientKey(n.row)) ?? (firsts.get(clientKey(n.row)) && viewOf(firsts.get(clientKey(n.row))!.row));
      if (!earlier) throw new Error(`the event with client id ${n.row.client_id} was neither written nor found`);
      return { event: earlier, queued: false, stored: false };
    });
    // The responses of idempotent requests commit with their events (D46).
    const held = batch.flatMap((n, i) =>
      n.idempotency ? [{ i, completion: n.idempotency.completion(String(i), results[i]!.event) }] : [],
    );
    if (held.length) {
      const stored = await completeClaimsOf(
        sql,
        held.map((h) => h.completion),
      );
      if (stored.size < held.length) throw batch.length === 1 ? keyInUse() : new Error("a claim was taken over during an event batch");
      for (const h of held) results[h.i]!.stored = true;
    }
    return results;
  });
}
