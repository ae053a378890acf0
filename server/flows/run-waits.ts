import { isDeepStrictEqual } from "node:util";
import type { Contact } from "../contacts/contact-schemas.ts";
import type { Handle } from "../db/client.ts";
import { placeholderValues, render, type Scalar } from "../messaging/render.ts";
import { flatten } from "../contact-events/conditions.ts";
import type { Job } from "../outbox/jobs.ts";
import { addDuration, type MessageOutcome, type WaitForStep } from "./flow-schemas.ts";
import type { Path } from "./step-path.ts";

// What a run waits for and how it finds it (D63, D64): events of its contact in its mode, and
// the outcome of its latest message, read by the statements below; and the `wait_for` step,
// which the run engine (advance-run.ts) walks through `waitFor`.

/** A run's `wait` column while it waits at a `wait_for` step (null otherwise). */
export type RunWait = {
  /** The `wait_for` step's position. */
  position: Path;
  /** When an event counts from (the wait's start, less its lookback), and the timeout. */
  since: string;
  until: string;
  /** An event wait: its name and `match`, rendered when the wait began. */
  event?: string;
  match?: Record<string, string>;
  /** A message wait: the message of the run's latest `send` step, and the outcome awaited. */
  message_id?: string;
  outcome?: MessageOutcome;
};

type RunRef = { id: string; workspace_id: string; contact_id: string; mode: string; key: string | null; variables: Record<string, Scalar> };

/** What `waitFor` reads of the run it walks. */
type WaitingRun = RunRef & { wait: RunWait | null; last_message_id: string | null };

/** A run's placeholders beyond the contact's (D17): its variables, the trigger's `event.…`, `wait.…`, and `run.key` (D66). */
export function runVariables(run: Pick<RunRef, "key" | "variables">): Record<string, Scalar> {
  return run.key === null ? run.variables : { ...run.variables, "run.key": run.key };
}

/** A `match` with the run's placeholders filled (D63: missing values render empty). */
export function renderMatch(match: Record<string, string> | undefined, run: RunRef, contact: Contact): Record<string, string> {
  if (!match) return {};
  const values = placeholderValues(runVariables(run), contact);
  return Object.fromEntries(Object.entries(match).map(([path, text]) => [path, render(text, values, { missing: "empty" })]));
}

// The earliest event of the run's contact and mode named `$4`, recorded at or after `$5` (D84:
// `created_at` orders events), whose properties equal every `match` entry (`$6`) as text; of the
// run's workspace, `$1`, through the contact's index that leads with it (D87: Citus routes it to
// one shard; without the workspace PostgreSQL could use no index and read every contact's events,
// and a storm of one contact's events had each wake read the whole table). With the id of the
// event that woke the run (`$7`), that event alone, by its key.
const MATCHES = `NOT EXISTS (
      SELECT 1 FROM jsonb_each_text($6::jsonb) m WHERE (e.properties #>> string_to_array(m.key, '.')) IS DISTINCT FROM m.value
    )`;
const FIND_EVENT = `
  SELECT id, properties, created_at FROM contact_events e
  WHERE workspace_id = $1 AND contact_id = $2 AND mode = $3::"KeyMode" AND name = $4 AND created_at >= $5 AND ${MATCHES}
  ORDER BY created_at, id LIMIT 1`;
const EVENT_BY_ID = `
  SELECT id, properties, created_at FROM contact_events e
  WHERE workspace_id = $1 AND id = $7 AND contact_id = $2 AND mode = $3::"KeyMode" AND name = $4 AND created_at >= $5 AND ${MATCHES}`;

export async function findEvent(
  sql: Handle,
  run: Pick<RunRef, "workspace_id" | "contact_id" | "mode">,
  query: { name: string; match: Record<string, string>; since: Date; id?: string },
): Promise<{ id: string; properties: unknown; created_at: Date } | null> {
  const params = [run.workspace_id, run.contact_id, run.mode, query.name, query.since, JSON.stringify(query.match)];
  const [row] = await sql<{ id: string; properties: unknown; created_at: Date }>(
    query.id === undefined ? FIND_EVENT : EVENT_BY_ID,
    query.id === undefined ? params : [...params, query.id],
  );
  return row ?? null;
}

const REACHED: Record<Exclude<MessageOutcome, "replied">, string[]> = {
  // A message read was delivered, whether or not its delivery was reported.
  delivered: ["delivered", "read"],
  read: ["read"],
  failed: ["failed"],
};

// The message's status when it is one of `$2`.
const MESSAGE_STATUS = `SELECT id, status::text AS status FROM messages WHERE id = $1 AND status::text = ANY($2::text[])`;

// D44, D63: the first inbound WhatsApp message from the message's contact after it was sent.
const REPLY = `
  SELECT i.id, i.content->>'text' AS text FROM messages s
  JOIN messages i ON i.workspace_id = s.workspace_id AND i.contact_id = s.contact_id AND i.direction = 'inbound' AND i.created_at > s.created_at
  WHERE s.id = $1 ORDER BY i.created_at, i.id LIMIT 1`;

/** The outcome a message wait waits for, if the message has reached it: `{{wait.status}}` and, for a reply, `{{wait.text}}` (D84). */
export async function messageOutcome(
  sql: Handle,
  messageId: string,
  outcome: MessageOutcome,
): Promise<{ id: string; status: string; text: string | null } | null> {
  if (outcome === "replied") {
    const [reply] = await sql<{ id: string; text: string | null }>(REPLY, [messageId]);
    return reply ? { id: reply.id, status: "replied", text: reply.text ?? "" } : null;
  }
  const [row] = await sql<{ id: string; status: string }>(MESSAGE_STATUS, [messageId, REACHED[outcome]]);
  return row ? { id: row.id, status: row.status, text: null } : null;
}

/** A run's variables without what its last wait set (`wait.…`). */
export const withoutWait = (variables: Record<string, Scalar>) =>
  Object.fromEntries(Object.entries(variables).filter(([k]) => !k.startsWith("wait.")));

type WaitOutcome =
  | { kind: "wait"; started: boolean; until: Date; wait: RunWait; detail: Record<string, unknown> }
  | { kind: "woke"; path: "on_event" | "on_timeout"; woke: Record<string, unknown>; values: Record<string, Scalar> };

/**
 * A `wait_for` step (D63). Arriving, the run looks for what it waits for (an event within
 * `lookback`, the outcome its latest message already has) and otherwise starts waiting, its
 * job due at the timeout. Waiting, a job wakes it: an event or a report of the message (their
 * job names it, and it is checked here against the wait as it now is), or the timeout. The
 * run's row is locked while this runs, so whatever arrives together, one path is taken.
 */
export async function waitFor(
  sql: Handle,
  run: WaitingRun,
  contact: Contact,
  step: WaitForStep,
  at: Path,
  wake: Job<"flow.step">["payload"]["wake"],
  now: Date,
): Promise<WaitOutcome> {
  const pending = run.wait && isDeepStrictEqual(run.wait.position, at) ? run.wait : null;
  if (!pending) {
    const until = addDuration(step.timeout, now);
    if (step.event !== undefined) {
      const match = renderMatch(step.match, run, contact);
      const since = step.lookback ? new Date(2 * now.getTime() - addDuration(step.lookback, now).getTime()) : now;
      const found = step.lookback ? await findEvent(sql, run, { name: step.event, match, since }) : null;
      if (found) return eventWoke(found);
      const wait: RunWait = { position: at, event: step.event, match, since: since.toISOString(), until: until.toISOString() };
      return { kind: "wait", started: true, until, wait, detail: { for: step.event, until: wait.until } };
    }
    const outcome = step.message!;
    if (!run.last_message_id) return timedOut("no_message");
    const reached = await messageOutcome(sql, run.last_message_id, outcome);
    if (reached) return messageWoke(reached);
    const wait: RunWait = { position: at, message_id: run.last_message_id, outcome, since: now.toISOString(), until: until.toISOString() };
    return { kind: "wait", started: true, until, wait, detail: { for: outcome, until: wait.until } };
  }
  if (wake?.by === "event" && pending.event !== undefined) {
    const found = await findEvent(sql, run, {
      name: pending.event,
      match: pending.match ?? {},
      since: new Date(pending.since),
      id: wake.event_id,
    });
    if (found) return eventWoke(found);
  }
  if (wake?.by === "message" && pending.outcome !== undefined) {
    const reached = await messageOutcome(sql, pending.message_id!, pending.outcome);
    if (reached) return messageWoke(reached);
  }
  const until = new Date(pending.until);
  if (until <= now) return timedOut();
  return { kind: "wait", started: false, until, wait: pending, detail: {} };
}

const eventWoke = (event: { id: string; properties: unknown }): WaitOutcome => ({
  kind: "woke",
  path: "on_event",
  woke: { by: "event", event_id: event.id },
  values: flatten(event.properties, "wait"),
});

const messageWoke = (m: { id: string; status: string; text: string | null }): WaitOutcome => ({
  kind: "woke",
  path: "on_event",
  woke: { by: "message", message_id: m.id, status: m.status },
  values: { "wait.status": m.status, ...(m.text !== null ? { "wait.text": m.text } : {}) },
});

const timedOut = (reason?: string): WaitOutcome => ({
  kind: "woke",
  path: "on_timeout",
  woke: { by: "timeout", ...(reason ? { reason } : {}) },
  values: {},
});
