import { isDeepStrictEqual } from "node:util";
import { parse as parseDuration, type Duration } from "tinyduration";
import type { Contact } from "../contacts/contact-schemas.ts";
import { findContactBy, touchContact } from "../contacts/get-contact.ts";
import type { Database, Handle } from "../db/client.ts";
import { insertEvent } from "../events/record-event.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { AppError } from "../lib/errors.ts";
import type { SendMessageRequest } from "../messaging/message-schemas.ts";
import { connectedChannel, pickChannel, renderContent, whatsappContent } from "../messaging/send-message.ts";
import { insertMessage } from "../messaging/insert-messages.ts";
import { completeJob, rescheduleJob, type Job } from "../outbox/jobs.ts";
import type { Scalar } from "../messaging/render.ts";
import type { SendStep, Step } from "./flow-schemas.ts";
import { PARKED } from "./set-flow-status.ts";
import { enterBranch, holds, nextPath, stepAt, type Path } from "./step-path.ts";

// The run engine: the pipeline's handler for `flow.step` jobs. One job walks a run from its
// position through every step that is due now, in one transaction that holds the run's row:
// `tag`, `set_field` and `exit` act on the contact there, `send` writes its message there
// (the same insert as POST /messages), and a `wait` reschedules the job for its due time.
// Two workers never advance one run twice: the job is leased, the run row is locked, and a
// job whose position is not the run's is stale and ends without acting.

export type AdvanceResult = "waiting" | "completed" | "parked" | "failed" | "skipped";

/** A run that walks more steps than this in one go is certainly broken (there are no loops). */
const MAX_STEPS_PER_JOB = 1_000;

type RunRow = {
  id: string;
  workspace_id: string;
  flow_id: string;
  version: number;
  contact_id: string;
  mode: "test" | "live";
  status: string;
  position: Path | null;
  variables: Record<string, Scalar>;
  flow_status: string;
};

const versions = new Map<string, Step[]>();

/** Versions never change once runs use them (a draft has none), so they are read once per process. */
async function versionSteps(sql: Handle, flowId: string, version: number): Promise<Step[] | null> {
  const key = `${flowId}:${version}`;
  const cached = versions.get(key);
  if (cached) return cached;
  const [row] = await sql<{ steps: Step[] }>(`SELECT steps FROM flow_versions WHERE flow_id = $1 AND version = $2`, [flowId, version]);
  if (!row) return null;
  if (versions.size > 5_000) versions.clear();
  versions.set(key, row.steps);
  return row.steps;
}

type History = { kind: string; position: Path | null; detail: Record<string, unknown> };

export async function advanceRun(database: Database, job: Job<"flow.step">, owner: string): Promise<AdvanceResult> {
  return database.transaction(async (sql) => {
    const [run] = await sql<RunRow>(
      `SELECT r.id, r.workspace_id, r.flow_id, r.version, r.contact_id, r.mode::text AS mode, r.status::text AS status, r.position,
         r.variables, f.status::text AS flow_status
       FROM flow_runs r JOIN flows f ON f.id = r.flow_id WHERE r.id = $1 FOR UPDATE OF r`,
      [job.subject_id],
    );
    if (!run || run.status !== "active" || !isDeepStrictEqual(run.position, job.payload.position)) {
      await completeJob(sql, job, owner);
      return "skipped";
    }
    if (run.flow_status === "paused") {
      // Held where it is; resuming the flow puts this job back at the run's due time.
      await rescheduleJob(sql, job, owner, PARKED, { countAttempt: false });
      return "parked";
    }
    const now = new Date();
    const history: History[] = [];
    const contact = await findContactBy(sql, run.workspace_id, { id: run.contact_id });
    const steps = await versionSteps(sql, run.flow_id, run.version);
    if (!contact || !steps) {
      return end(sql, job, owner, run, history, "failed", contact ? "The flow version is missing." : "The contact no longer exists.");
    }
    let contactChanged = false;
    let position: Path | null = run.position;
    for (let n = 0; position; n++) {
      const step = stepAt(steps, position);
      if (!step || n >= MAX_STEPS_PER_JOB) {
        return end(sql, job, owner, run, history, "failed", `The flow definition has no step at ${position.join(".")}.`, position);
      }
      const at = position;
      switch (step.type) {
        case "send":
          history.push({ position: at, ...(await send(sql, run, contact, step)) });
          position = nextPath(steps, at);
          break;
        case "wait": {
          const due = dueAt(step, now);
          // After a last-step wait the position is null: the run completes when it is due.
          position = nextPath(steps, at);
          if (due > now) {
            history.push({ kind: "waiting", position: at, detail: { until: due.toISOString() } });
            await sql(`WITH ${HISTORY} UPDATE flow_runs SET position = $4::jsonb, next_step_at = $5, updated_at = $2 WHERE id = $1`, [
              run.id,
              now,
              JSON.stringify(history),
              JSON.stringify(position),
              due,
            ]);
            await rescheduleJob(sql, job, owner, due, { payload: { position } });
            if (contactChanged) await contactUpdated(sql, run, now);
            return "waiting";
          }
          history.push({ kind: "step", position: at, detail: { type: "wait", until: due.toISOString() } });
          break;
        }
        case "branch": {
          const side = holds(step.if, contact) ? "then" : "else";
          history.push({ kind: "step", position: at, detail: { type: "branch", took: side } });
          position = enterBranch(steps, at, side);
          break;
        }
        case "tag":
          if (await applyTags(sql, run, contact, step.add ?? [], step.remove ?? [])) contactChanged = true;
          history.push({ kind: "step", position: at, detail: { type: "tag", add: step.add ?? [], remove: step.remove ?? [] } });
          position = nextPath(steps, at);
          break;
        case "set_field":
          if (await setField(sql, contact, step.key, step.value)) contactChanged = true;
          history.push({ kind: "step", position: at, detail: { type: "set_field", key: step.key, value: step.value } });
          position = nextPath(steps, at);
          break;
        case "exit":
          history.push({ kind: "step", position: at, detail: { type: "exit" } });
          position = null;
          break;
      }
    }
    if (contactChanged) await contactUpdated(sql, run, now);
    return end(sql, job, owner, run, history, "completed");
  });
}

/** D37 `wait`: an ISO 8601 duration from now (calendar months and years on the UTC calendar), or `until`. */
function dueAt(step: { duration?: string; until?: string }, now: Date): Date {
  if (step.until) return new Date(step.until);
  const d: Duration = parseDuration(step.duration!);
  const due = new Date(now);
  due.setUTCFullYear(
    due.getUTCFullYear() + (d.years ?? 0),
    due.getUTCMonth() + (d.months ?? 0),
    due.getUTCDate() + (d.weeks ?? 0) * 7 + (d.days ?? 0),
  );
  return new Date(due.getTime() + ((d.hours ?? 0) * 3600 + (d.minutes ?? 0) * 60 + (d.seconds ?? 0)) * 1000);
}

/**
 * A `send` step: a message to the run's contact through the same insert as POST /messages,
 * in the run's mode (D40) and transaction, placeholders from the run's variables (missing
 * ones render empty, D17). WhatsApp content follows the API's rules (D42, D43): a template,
 * or free-form content inside the contact's window, or with `"fallback": "template"` the
 * template outside it. No address, an opt-out (D38), a closed window without a fallback, no
 * usable channel or template, or a reached limit (D25): no message, and the run goes on with
 * the reason (and its error code) in its history.
 */
async function send(sql: Handle, run: RunRow, contact: Contact, step: SendStep): Promise<Omit<History, "position">> {
  const skip = (reason: string, code: string) => ({ kind: "skipped", detail: { type: "send", channel: step.channel, reason, code } });
  const address = step.channel === "whatsapp" ? contact.phone : contact.email;
  if (!address) {
    return skip(`The contact has no ${step.channel === "whatsapp" ? "phone number" : "e-mail address"}.`, "recipient_missing_address");
  }
  if (step.channel === "whatsapp" ? contact.opt_out_whatsapp : contact.opt_out_email) {
    return skip(`The contact opted out of ${step.channel} messages.`, "recipient_opted_out");
  }
  const sender = { workspaceId: run.workspace_id, mode: run.mode };
  const request = { ...step, to: { contact_id: contact.id }, variables: run.variables } as SendMessageRequest;
  try {
    const chosen = await pickChannel(sql, sender, request);
    const channelId = run.mode === "live" ? (chosen ?? (await connectedChannel(sql, run.workspace_id, step.channel))) : chosen;
    const content =
      step.channel === "whatsapp"
        ? await whatsappContent(sql, sender, request, contact, channelId, {
            missing: "empty",
            fallback: step.whatsapp?.fallback === "template",
          })
        : renderContent(request, contact, { missing: "empty" });
    const id = await insertMessage(sql, {
      sender,
      channel: step.channel,
      channelId,
      contactId: contact.id,
      address,
      content,
      source: "flow",
      runId: run.id,
    });
    return { kind: "step", detail: { type: "send", channel: step.channel, message_id: id } };
  } catch (err) {
    if (err instanceof AppError) return skip(err.message, err.code);
    throw err;
  }
}

/** Adds and removes tags (ids that still exist in the workspace); true when the set changed. */
async function applyTags(sql: Handle, run: RunRow, contact: Contact, add: string[], remove: string[]): Promise<boolean> {
  const added = add.length
    ? await sql<{ tag_id: string }>(
        `INSERT INTO contact_tags (contact_id, tag_id) SELECT $1, id FROM tags WHERE workspace_id = $2 AND id = ANY($3::text[])
         ON CONFLICT DO NOTHING RETURNING tag_id`,
        [contact.id, run.workspace_id, add],
      )
    : [];
  const removed = remove.length
    ? await sql<{ tag_id: string }>(`DELETE FROM contact_tags WHERE contact_id = $1 AND tag_id = ANY($2::text[]) RETURNING tag_id`, [
        contact.id,
        remove,
      ])
    : [];
  const gone = new Set(removed.map((r) => r.tag_id));
  contact.tags = [...contact.tags.filter((t) => !gone.has(t)), ...added.map((r) => r.tag_id)].sort();
  return added.length + removed.length > 0;
}

/** Sets (or, with null, removes) one custom field; true when the stored value changed. */
async function setField(sql: Handle, contact: Contact, key: string, value: string | number | boolean | null): Promise<boolean> {
  const before = contact.fields[key];
  if (value === null ? before === undefined : before === value) return false;
  await sql(
    value === null
      ? `UPDATE contacts SET fields = fields - $2 WHERE id = $1`
      : `UPDATE contacts SET fields = fields || jsonb_build_object($2::text, $3::jsonb) WHERE id = $1`,
    value === null ? [contact.id, key] : [contact.id, key, JSON.stringify(value)],
  );
  const fields = { ...contact.fields };
  if (value === null) delete fields[key];
  else fields[key] = value;
  contact.fields = fields;
  return true;
}

/** `contato.atualizado` once per job that changed the contact (D14), with the Contact as it now is. */
async function contactUpdated(sql: Handle, run: RunRow, now: Date): Promise<void> {
  const contact = await touchContact(sql, run.workspace_id, run.contact_id, now);
  await insertEvent(sql, {
    workspaceId: run.workspace_id,
    mode: run.mode,
    name: "contato.atualizado",
    data: contact as unknown as Prisma.InputJsonObject,
    contactId: run.contact_id,
    at: now,
  });
}

// A run's new history entries ($3, a JSON array, at $2), written by the statement that moves
// the run ($1) on.
const HISTORY = `h AS (
  INSERT INTO flow_run_history (run_id, at, kind, position, detail)
  SELECT $1, $2, e->>'kind', e->'position', e->'detail' FROM jsonb_array_elements($3::jsonb) e
)`;

/**
 * The end of a run: `completed` (its last step or an `exit`; `fluxo.concluido`) or `failed`
 * (a step could not run, D7; `fluxo.parado` with the reason, since the contact left before
 * the end). The job leaves the outbox in the same transaction.
 */
async function end(
  sql: Handle,
  job: Job,
  owner: string,
  run: RunRow,
  history: History[],
  status: "completed" | "failed",
  reason?: string,
  position: Path | null = null,
): Promise<AdvanceResult> {
  const now = new Date();
  history.push({ kind: status, position, detail: reason ? { reason } : {} });
  await sql(
    `WITH ${HISTORY} UPDATE flow_runs SET status = $4::"RunStatus", reason = $5, next_step_at = NULL, ended_at = $2, updated_at = $2 WHERE id = $1`,
    [run.id, now, JSON.stringify(history), status, reason ?? null],
  );
  await insertEvent(sql, {
    workspaceId: run.workspace_id,
    mode: run.mode,
    name: status === "completed" ? "fluxo.concluido" : "fluxo.parado",
    data: { id: run.id, flow_id: run.flow_id, contact: run.contact_id, status, ...(reason ? { reason } : {}) },
    contactId: run.contact_id,
    at: now,
  });
  await completeJob(sql, job, owner);
  return status;
}
