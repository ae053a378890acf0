import { isDeepStrictEqual } from "node:util";
import type { Contact } from "../contacts/contact-schemas.ts";
import { lockRecipients, touchContacts } from "../contacts/get-contact.ts";
import { rowsPerWorkspace } from "../lib/per-workspace.ts";
import { isConnectionError, type Database, type Handle } from "../db/client.ts";
import { jsonRows } from "../db/json-rows.ts";
import type { Columns } from "../db/rows.ts";
import { eventRows, eventsPart, insertEvents, type NewEvent } from "../events/record-event.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import type { Mode } from "../keys/scopes.ts";
import { AppError } from "../lib/errors.ts";
import { groupCommitEach } from "../lib/group-commit.ts";
import type { SendMessageRequest } from "../messaging/message-schemas.ts";
import { connectedChannelRow } from "../messaging/connected-channel.ts";
import { guardPause, guardReason } from "../channels/channel-pause.ts";
import { messageContent, pickChannel } from "../messaging/send-message.ts";
import { channelOf } from "../channels/registry.ts";
import { deliveryAddress, skipReason, whyNot } from "../messaging/why-not.ts";
import { countedMessage, insertMessages, type Accepted, type NewMessage } from "../messaging/insert-messages.ts";
import { currentCause, withCause, type Cause } from "../observability/request-context.ts";
import { settleJobsPart, settlementRows, type Job, type Settlement } from "../outbox/jobs.ts";
import type { Scalar } from "../messaging/render.ts";
import { addDuration, type Goal, type SendStep, type Step } from "./flow-schemas.ts";
import { PARKED } from "./set-flow-status.ts";
import { enterList, holds, nextPath, SPLIT_PATHS, stepAt, type Path } from "./step-path.ts";
import { splitPath } from "./split-path.ts";
import { countsPart, FlowCounts, type RunState } from "./stat-counters.ts";
import { findEvent, renderMatch, runVariables, waitFor, withoutWait, type RunWait } from "./run-waits.ts";
import type { Caller } from "../lib/caller.ts";
import { contactTimeZone, quietHold, type QuietHours } from "../lib/time-zones.ts";
import { capsFor, type Caps } from "../messaging/frequency-caps.ts";
import { SETTINGS_COLUMNS, settingsOf, type WorkspaceSettings } from "../workspaces/workspace-settings.ts";

// The run engine: the pipeline's handler for `flow.step` jobs. A job walks a run from its
// position through every step that is due now: `tag`, `set_field` and `exit` act on the
// contact, `send` writes its message (the same insert as POST /messages), and a `wait`
// reschedules the job for its due time. The jobs of a claim advance together: concurrent jobs
// share one transaction (`groupCommit`) that locks their runs and contacts, walks each run in
// memory in turn, and then writes what all of them did in a few statements (tags, fields,
// messages, the runs with their history, events, the jobs). Two workers never advance one run
// twice: the job is leased, the run row is locked, and a job whose position is not the run's
// is stale and ends without acting.

export type AdvanceResult = "waiting" | "completed" | "parked" | "failed" | "skipped";

/** A run that walks more steps than this in one go is certainly broken (there are no loops). */
const MAX_STEPS_PER_JOB = 1_000;

export type RunRow = Columns<
  "flow_runs",
  | "id"
  | "workspace_id"
  | "flow_id"
  | "version"
  | "contact_id"
  | "mode"
  | "status"
  | "key"
  | "created_at"
  | "next_step_at"
  | "converted_at"
  | "last_message_id"
> & {
  position: Path | null;
  /** D69: the step the run waits in (or failed at), its place in the statistics. */
  waiting_at: Path | null;
  variables: Record<string, Scalar>;
  wait: RunWait | null;
  flow_status: Columns<"flows", "status">["status"];
};

type Version = { steps: Step[]; goal: Goal | null; quiet_hours: QuietHours | null; caps: Caps | null };
const versions = new Map<string, Version>();

/** Versions never change once runs use them (a draft has none), so they are read once per process. */
async function versionOf(sql: Handle, workspaceId: string, flowId: string, version: number): Promise<Version | null> {
  const key = `${flowId}:${version}`;
  const cached = versions.get(key);
  if (cached) return cached;
  const [row] = await sql<Version>(
    `SELECT steps, goal, quiet_hours, caps FROM flow_versions WHERE workspace_id = $3 AND flow_id = $1 AND version = $2`,
    [flowId, version, workspaceId],
  );
  if (!row) return null;
  if (versions.size > 5_000) versions.clear();
  versions.set(key, row);
  return row;
}

type History = { kind: string; position: Path | null; detail: Record<string, unknown> };

/** A due job of the batch, with the work (request or job) that caused it (D54). */
type Due = { job: Job<"flow.step">; owner: string; cause: Cause };

/**
 * Advances the job's run (see above): the jobs that arrive while a batch is being written go
 * together in the next one. A batch that fails as a whole (but for an unreachable database)
 * is advanced again job by job, so a fault stays with its run.
 */
export function advanceRun(database: Database, job: Job<"flow.step">, owner: string): Promise<AdvanceResult> {
  return advanceBatch(database, { job, owner, cause: currentCause() });
}

const advanceBatch = groupCommitEach(advanceRuns, { alone: (err) => !isConnectionError(err), maxBatchSize: 100, inFlight: 2 });

// The runs of a batch, locked in (workspace, id) order (two batches never wait on each other in
// a circle): one statement per workspace, `$1`, as all below (D87).
const LOCK_RUNS = `
  SELECT r.id, r.workspace_id, r.flow_id, r.version, r.contact_id, r.mode::text AS mode, r.status::text AS status, r.position,
    r.variables, r.key, r.created_at, r.next_step_at, r.converted_at, r.last_message_id, r.wait, r.waiting_at
  FROM flow_runs r
  WHERE r.workspace_id = $1 AND r.id = ANY($2::text[]) ORDER BY r.id FOR UPDATE`;

// Their flows' statuses, read once the runs are locked: a statement's snapshot is taken when it
// starts, so a status joined into LOCK_RUNS could predate a pause that committed while it
// waited on a run, and a step would run after the pause returned (D6). Read here, a pause that
// committed before a batch holds its runs always parks their steps. With them, the
// workspace's settings (time zone, caps) that send steps read.
const FLOW_STATUSES = `
  SELECT coalesce((SELECT json_agg(f) FROM (
      SELECT f.id, f.status::text AS status FROM flows f WHERE f.workspace_id = $1 AND f.id = ANY($2::text[])
    ) f), '[]') AS flows,
    (SELECT row_to_json(w) FROM (SELECT ${SETTINGS_COLUMNS} FROM workspaces WHERE id = $1) w) AS settings`;

async function advanceRuns(database: Database, batch: readonly Due[]): Promise<AdvanceResult[]> {
  return database.transaction(async (sql) => {
    const keys = [...new Map(batch.map((d) => [d.job.subject_id, d.job.workspace_id])).entries()];
    const rows = await rowsPerWorkspace(
      keys,
      ([, workspaceId]) => workspaceId,
      (ws, group) => sql<Omit<RunRow, "flow_status">>(LOCK_RUNS, [ws, group.map(([id]) => id)]),
    );
    const flows = [...new Map(rows.map((r) => [r.flow_id, r.workspace_id])).entries()];
    const settings = new Map<string, WorkspaceSettings>();
    const statuses = await rowsPerWorkspace(
      flows,
      ([, workspaceId]) => workspaceId,
      async (ws, group) => {
        type Read = { flows: { id: string; status: RunRow["flow_status"] }[]; settings: WorkspaceSettings | null };
        const [read] = await sql<Read>(FLOW_STATUSES, [ws, group.map(([id]) => id)]);
        if (read!.settings) settings.set(ws, settingsOf(read!.settings));
        return read!.flows;
      },
    );
    const flowStatus = new Map(statuses.map((f) => [f.id, f.status]));
    const locked: RunRow[] = rows.map((r) => ({ ...r, flow_status: flowStatus.get(r.flow_id)! }));
    const runs = new Map(locked.map((r) => [r.id, r]));
    // D69: what each run counts as locked, before the walks change it (`FlowCounts.run`), and its position then.
    const counted = new Map([...runs.values()].map((r) => [r.id, { state: countedAs(r), position: r.position }]));
    const live = [...runs.values()].filter((r) => r.status === "active" && r.flow_status !== "paused");
    const recipients = await lockRecipients(
      sql,
      live.map((r) => ({ workspaceId: r.workspace_id, id: r.contact_id })),
    );
    const writes = new Writes(recipients, settings);
    const results: AdvanceResult[] = [];
    for (const due of batch) {
      const run = runs.get(due.job.subject_id);
      results.push(await withCause(due.cause, () => walk(sql, due, run, recipients.get(run?.contact_id ?? "")?.contact, writes)));
    }
    await writes.flush(sql, counted);
    return results;
  });
}

/** A locked run as its statistics count it. */
function countedAs(r: RunRow): RunState {
  const { workspace_id, flow_id, mode, version, status } = r;
  return { workspace_id, flow_id, mode, version, status, converted: r.converted_at !== null, place: r.waiting_at ?? r.position };
}

/** One job's walk of its run, in memory: what it does is added to `writes`. */
async function walk(sql: Handle, due: Due, run: RunRow | undefined, contact: Contact | undefined, writes: Writes): Promise<AdvanceResult> {
  const { job } = due;
  if (!run || run.status !== "active" || !isDeepStrictEqual(run.position, job.payload.position)) {
    writes.settle({ id: job.id, workspace_id: job.workspace_id, owner: due.owner });
    return "skipped";
  }
  if (run.flow_status === "paused") {
    // Held where it is; resuming the flow puts this job back at the run's due time.
    writes.settle({ id: job.id, workspace_id: job.workspace_id, owner: due.owner, runAt: PARKED, countAttempt: false });
    return "parked";
  }
  const now = new Date();
  const history: History[] = [];
  const version = await versionOf(sql, run.workspace_id, run.flow_id, run.version);
  if (!contact || !version) {
    return writes.end(due, run, history, {
      status: "failed",
      reason: contact ? "The flow version is missing." : "The contact no longer exists.",
    });
  }
  const { steps, goal } = version;
  // D64: a goal reached since the run began ends it before any pending step runs.
  if (goal && !run.converted_at) {
    const reached = await findEvent(sql, run, {
      name: goal.event,
      match: renderMatch(goal.match, run, contact),
      since: new Date(run.created_at),
    });
    if (reached) {
      run.converted_at = new Date(reached.created_at);
      writes.converted(run, reached.id);
      history.push({ kind: "converted", position: run.position, detail: { event_id: reached.id } });
      if (goal.exit) return writes.end(due, run, history, { status: "completed", reason: "goal_reached" });
    }
  }
  const wake = job.payload.wake;
  const waitingHere = run.wait !== null && isDeepStrictEqual(run.wait.position, run.position);
  // A wake that finds the run not due (a goal not reached, a wait it does not end) changes nothing.
  if (wake && !waitingHere && run.next_step_at && new Date(run.next_step_at) > now) {
    if (history.length) writes.record(run, history, now);
    writes.settle({ id: job.id, workspace_id: job.workspace_id, owner: due.owner });
    return "skipped";
  }
  let contactChanged = false;
  let position: Path | null = run.position;
  run.waiting_at = null; // set again by a wait that holds the run (or the step it fails at)
  for (let n = 0; position; n++) {
    const step = stepAt(steps, position);
    if (!step || n >= MAX_STEPS_PER_JOB) {
      if (contactChanged) writes.contactUpdated(due, run, now);
      const reason = `The flow definition has no step at ${position.join(".")}.`;
      return writes.end(due, run, history, { status: "failed", reason }, position);
    }
    const at = position;
    switch (step.type) {
      case "send": {
        // D65: a send due in the contact's quiet hours waits until they end, then runs.
        const zone = version.quiet_hours && contactTimeZone(contact, writes.settings(run.workspace_id).time_zone);
        const held = zone ? quietHold(version.quiet_hours!, zone, now) : null;
        if (held) {
          history.push({ kind: "held_quiet_hours", position: at, detail: { until: held.until.toISOString(), time_zone: zone } });
          if (contactChanged) writes.contactUpdated(due, run, now);
          return writes.wait(due, run, history, at, held.due, now, null, at);
        }
        const sent = await send(sql, run, contact, step, writes, version.caps, now);
        if (typeof sent.detail.message_id === "string") run.last_message_id = sent.detail.message_id;
        history.push({ position: at, ...sent });
        position = nextPath(steps, at);
        break;
      }
      case "wait": {
        const until = step.until ? new Date(step.until) : addDuration(step.duration!, now);
        // After a last-step wait the position is null: the run completes when it is due.
        position = nextPath(steps, at);
        if (until > now) {
          history.push({ kind: "waiting", position: at, detail: { for: step.duration ?? step.until, until: until.toISOString() } });
          if (contactChanged) writes.contactUpdated(due, run, now);
          return writes.wait(due, run, history, position, until, now, null, at);
        }
        history.push({ kind: "step", position: at, detail: { type: "wait", until: until.toISOString() } });
        break;
      }
      case "wait_for": {
        const outcome = await waitFor(sql, run, contact, step, at, wake, now);
        if (outcome.kind === "wait") {
          if (!outcome.started && wake) {
            // A wake that does not end the wait: the run goes on waiting for its own job (due at the timeout).
            run.waiting_at = at;
            if (history.length) writes.record(run, history, now);
            writes.settle({ id: job.id, workspace_id: job.workspace_id, owner: due.owner });
            return "skipped";
          }
          if (outcome.started) history.push({ kind: "waiting", position: at, detail: outcome.detail });
          if (contactChanged) writes.contactUpdated(due, run, now);
          return writes.wait(due, run, history, at, outcome.until, now, outcome.wait, at);
        }
        // D69: a wait_for that ends as it is reached (a lookback, no message to wait on) is counted as reached by this entry.
        const atOnce = !(run.wait && isDeepStrictEqual(run.wait.position, at));
        history.push({ kind: "woke", position: at, detail: atOnce ? { ...outcome.woke, at_once: true } : outcome.woke });
        history.push({ kind: "path", position: at, detail: { type: "wait_for", path: outcome.path } });
        // D63, D84: `{{wait.…}}` in later steps is what ended the wait.
        run.variables = { ...withoutWait(run.variables), ...outcome.values };
        run.wait = null;
        position = enterList(steps, at, outcome.path);
        break;
      }
      case "branch": {
        const side = holds(step.if, contact) ? "then" : "else";
        history.push({ kind: "step", position: at, detail: { type: "branch", took: side } });
        position = enterList(steps, at, side);
        break;
      }
      case "split": {
        // D68: the path by a hash of the flow, the step and the contact; its index in the history.
        const index = splitPath(
          run.flow_id,
          at,
          contact.id,
          step.paths.map((p) => p.weight),
        );
        history.push({ kind: "path", position: at, detail: { type: "split", path: index } });
        position = enterList(steps, at, SPLIT_PATHS[index]!);
        break;
      }
      case "tag":
        if (await writes.tags(sql, run, contact, step.add ?? [], step.remove ?? [])) contactChanged = true;
        history.push({ kind: "step", position: at, detail: { type: "tag", add: step.add ?? [], remove: step.remove ?? [] } });
        position = nextPath(steps, at);
        break;
      case "set_field":
        if (writes.field(run, contact, step.key, step.value)) contactChanged = true;
        history.push({ kind: "step", position: at, detail: { type: "set_field", key: step.key, value: step.value } });
        position = nextPath(steps, at);
        break;
      case "exit":
        history.push({ kind: "step", position: at, detail: { type: "exit" } });
        position = null;
        break;
    }
  }
  if (contactChanged) writes.contactUpdated(due, run, now);
  return writes.end(due, run, history, { status: "completed", reason: "end" });
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
async function send(
  sql: Handle,
  run: RunRow,
  contact: Contact,
  step: SendStep,
  writes: Writes,
  flowCaps: Caps | null,
  now: Date,
): Promise<Omit<History, "position">> {
  // D81: the reason in the vocabulary statistics and reachability share, with the error's words and code.
  const skip = (reason: string, code: string) => ({
    kind: "skipped",
    detail: { type: "send", channel: step.channel, reason, code, skip: skipReason(code) },
  });
  // D16, D38, D72, D67: no address, opt-out, a suppressed address (live e-mail, read as the contact was locked), then the
  // workspace's cap and the flow's own, counted in the run's mode: the rule the API send and
  // reachability share (`whyNot`).
  const caps = capsFor(step.channel, writes.settings(run.workspace_id).caps, flowCaps);
  const to = { workspaceId: run.workspace_id, contactId: contact.id, mode: run.mode, channel: step.channel };
  const [refused] = await whyNot(
    sql,
    { workspaceId: run.workspace_id, mode: run.mode, channel: step.channel, contact },
    { suppressed: writes.suppression(contact.id), caps: { caps, pending: (since) => writes.pending(to, since) }, now },
  );
  if (refused) return skip(refused.message, refused.code);
  const address = deliveryAddress(contact, step.channel).address!;
  const sender = { kind: "pipeline", workspaceId: run.workspace_id, mode: run.mode } satisfies Caller;
  const request = { ...step, to: { contact_id: contact.id }, variables: runVariables(run) } as SendMessageRequest;
  try {
    const chosen = await pickChannel(sql, sender, request);
    const connected = run.mode === "live" && !chosen ? await connectedChannelRow({ sql }, run.workspace_id, step.channel) : null;
    const channelId = connected?.channel ?? chosen;
    // D93: the reputation guard pauses journey sends on the e-mail channel (API sends go on):
    // read with the connected channel, or, for a step's own channel, here.
    const guarded =
      channelId && channelOf(step.channel).reputationGuard
        ? connected
          ? guardReason(connected.paused)
          : await guardPause(sql, run.workspace_id, channelId)
        : null;
    if (guarded)
      return skip(`The channel's journey sends are paused: its ${guarded.replace("_", " ")} passed the threshold.`, "reputation_guard");
    const content = await messageContent(sql, sender, request, contact, channelId, {
      missing: "empty",
      fallback: step.whatsapp?.fallback === "template",
    });
    const id = await writes.message(sql, {
      sender,
      channel: step.channel,
      channelId,
      contactId: contact.id,
      address,
      content,
      source: "flow",
      runId: run.id,
      flowId: run.flow_id,
    });
    return { kind: "step", detail: { type: "send", channel: step.channel, message_id: id } };
  } catch (err) {
    if (err instanceof AppError) return skip(err.message, err.code);
    throw err;
  }
}

/** A run as a batch leaves it: every column a walk may change, written by one statement. */
/** How a run ends: completed at its end or by its goal (D64), or failed with the reason (D7). */
type RunEnd = { status: "completed"; reason: "end" | "goal_reached" } | { status: "failed"; reason: string };

type RunChange = {
  workspace_id: string;
  id: string;
  status: string;
  reason: string | null;
  ended_at: Date | null;
  /** JSON text: the position (`null` after a last-step wait or at the end). */
  position: string;
  waiting_at: string | null;
  next_step_at: Date | null;
  wait: string | null;
  wait_event: string | null;
  wait_message_id: string | null;
  variables: string;
  converted_at: Date | null;
  converted_event_id: string | null;
  last_message_id: string | null;
  at: Date;
};

type Pending = (NewEvent & { cause: Cause }) | { updated: { workspaceId: string; mode: Mode; contactId: string; at: Date; cause: Cause } };

/**
 * What the jobs of a batch did, kept in memory while they walk (the contacts as they change,
 * so a later step or job of the batch sees them as they now are) and written by `flush`, each
 * kind of row in one statement.
 */
class Writes {
  /** Each locked contact's tags and fields as read, to write only the difference. */
  private readonly before = new Map<string, { tags: Set<string>; fields: Contact["fields"] }>();
  private readonly changed = new Map<string, { workspaceId: string; id: string; contact: Contact }>();
  private readonly existing = new Map<string, boolean>(); // "workspace tag" → the tag exists
  private readonly messages: Accepted[] = [];
  private readonly history: (History & { workspace_id: string; run_id: string; at: Date })[] = [];
  private readonly runs: RunChange[] = [];
  private readonly conversions = new Map<string, string>();
  private readonly events: Pending[] = [];
  private readonly settlements: Settlement[] = [];

  /**
   * `recipients`: each locked contact with its live suppression (D72; its e-mail does not change
   * in a batch); `workspaces`: the settings of the runs' workspaces, read with their flows.
   */
  constructor(
    private readonly recipients: Map<string, { contact: Contact; suppressed: string | null }>,
    private readonly workspaces: Map<string, WorkspaceSettings>,
  ) {
    for (const [id, { contact: c }] of recipients) this.before.set(id, { tags: new Set(c.tags), fields: c.fields });
  }

  /** The reason the live suppression list gives the contact's e-mail, read with the contact. */
  suppression(contactId: string): string | null {
    return this.recipients.get(contactId)?.suppressed ?? null;
  }

  /**
   * The run's workspace's time zone and caps, read with its flows' statuses (FLOW_STATUSES) for
   * every workspace of the batch; a workspace deleted meanwhile has none, and gets the defaults.
   */
  settings(workspaceId: string): WorkspaceSettings {
    return this.workspaces.get(workspaceId) ?? { time_zone: "UTC", caps: {}, whatsapp_prices: {}, currency: null };
  }

  settle(settlement: Settlement): void {
    this.settlements.push(settlement);
  }

  /** A `tag` step: adds the tags that exist in the workspace, removes the others; true when the set changed. */
  async tags(sql: Handle, run: RunRow, contact: Contact, add: string[], remove: string[]): Promise<boolean> {
    const unknown = add.filter((id) => !this.existing.has(`${run.workspace_id} ${id}`));
    if (unknown.length) {
      const found = new Set(
        (
          await sql<Columns<"tags", "id">>(`SELECT id FROM tags WHERE workspace_id = $1 AND id = ANY($2::text[])`, [
            run.workspace_id,
            unknown,
          ])
        ).map((t) => t.id),
      );
      for (const id of unknown) this.existing.set(`${run.workspace_id} ${id}`, found.has(id));
    }
    const tags = new Set(contact.tags);
    for (const id of add) if (this.existing.get(`${run.workspace_id} ${id}`)) tags.add(id);
    for (const id of remove) tags.delete(id);
    if (tags.size === contact.tags.length && contact.tags.every((t) => tags.has(t))) return false;
    contact.tags = [...tags].sort();
    this.changed.set(contact.id, { workspaceId: run.workspace_id, id: contact.id, contact });
    return true;
  }

  /** A `set_field` step (null removes the field); true when the value changed. */
  field(run: RunRow, contact: Contact, key: string, value: string | number | boolean | null): boolean {
    const current = contact.fields[key];
    if (value === null ? current === undefined : current === value) return false;
    const fields = { ...contact.fields };
    if (value === null) delete fields[key];
    else fields[key] = value;
    contact.fields = fields;
    this.changed.set(contact.id, { workspaceId: run.workspace_id, id: contact.id, contact });
    return true;
  }

  /** The batch's messages to this contact on this channel in this mode since `since`, not yet written (D67). */
  pending(to: { workspaceId: string; contactId: string; mode: Mode; channel: string }, since: Date): number {
    return this.messages.filter(
      ({ message: m, at }) =>
        m.contactId === to.contactId &&
        m.channel === to.channel &&
        m.sender.mode === to.mode &&
        m.sender.workspaceId === to.workspaceId &&
        at > since,
    ).length;
  }

  /** A `send` step's message (a live one counted now, D25); its id. */
  async message(sql: Handle, message: NewMessage): Promise<string> {
    const accepted = await countedMessage(sql, message);
    this.messages.push(accepted);
    return accepted.id;
  }

  /** `contato.atualizado` once per job that changed the contact (D14), with the Contact as it is once written. */
  contactUpdated(due: Due, run: RunRow, at: Date): void {
    this.events.push({ updated: { workspaceId: run.workspace_id, mode: run.mode, contactId: run.contact_id, at, cause: due.cause } });
  }

  /** D64: the goal's event, written with the run's next change. */
  converted(run: RunRow, eventId: string): void {
    this.conversions.set(run.id, eventId);
  }

  /** History entries, and the run as it now is, when the walk ends neither waiting nor at the end. */
  record(run: RunRow, history: History[], at: Date): void {
    this.history.push(...history.map((h) => ({ ...h, workspace_id: run.workspace_id, run_id: run.id, at })));
    this.runs.push(this.change(run, at));
  }

  /**
   * A wait not yet due (`wait`, or a `wait_for` with what it waits for): the run moves to
   * `position` and its job comes back at `until`.
   */
  wait(
    due: Due,
    run: RunRow,
    history: History[],
    position: Path | null,
    until: Date,
    now: Date,
    wait: RunWait | null,
    waitingAt: Path,
  ): "waiting" {
    run.position = position; // another job of this run in the batch is now stale
    run.next_step_at = until;
    run.wait = wait;
    run.waiting_at = waitingAt;
    this.record(run, history, now);
    this.settle({
      id: due.job.id,
      workspace_id: due.job.workspace_id,
      owner: due.owner,
      runAt: until,
      payload: { kind: due.job.kind, value: { position } },
    });
    return "waiting";
  }

  /**
   * The end of a run: `completed` (its last step or an `exit`, `reason` "end"; or its goal
   * reached, "goal_reached", D64; `fluxo.concluido` with the reason) or `failed` (a step could
   * not run, D7; `fluxo.parado` with the reason, since the contact left before the end). The
   * job leaves the outbox in the same transaction.
   */
  end(due: Due, run: RunRow, history: History[], end: RunEnd, position: Path | null = null) {
    const { status, reason } = end;
    const at = new Date();
    history.push({ kind: status, position, detail: { reason } });
    run.status = status; // another job of this run in the batch is now stale
    if (status === "failed" && position) run.waiting_at = position;
    run.position = null;
    run.next_step_at = null;
    run.wait = null;
    this.record(run, history, at);
    const change = this.runs[this.runs.length - 1]!;
    // The run's `reason` says why it did not simply reach its end.
    change.reason = reason === "end" ? null : reason;
    change.ended_at = at;
    this.events.push({
      workspaceId: run.workspace_id,
      mode: run.mode,
      name: status === "completed" ? "fluxo.concluido" : "fluxo.parado",
      data: { id: run.id, flow_id: run.flow_id, contact: run.contact_id, status, reason },
      contactId: run.contact_id,
      at,
      cause: due.cause,
    });
    this.settle({ id: due.job.id, workspace_id: due.job.workspace_id, owner: due.owner });
    return status;
  }

  private change(run: RunRow, at: Date): RunChange {
    const converted = this.conversions.get(run.id);
    return {
      workspace_id: run.workspace_id,
      id: run.id,
      status: run.status,
      reason: null,
      ended_at: null,
      position: JSON.stringify(run.position),
      waiting_at: run.waiting_at ? JSON.stringify(run.waiting_at) : null,
      next_step_at: run.next_step_at ? new Date(run.next_step_at) : null,
      wait: run.wait ? JSON.stringify(run.wait) : null,
      wait_event: run.wait?.event ?? null,
      wait_message_id: run.wait?.message_id ?? null,
      variables: JSON.stringify(run.variables),
      converted_at: run.converted_at ? new Date(run.converted_at) : null,
      converted_event_id: converted ?? null,
      last_message_id: run.last_message_id,
      at,
    };
  }

  /**
   * Writes what the batch did; `counted`, what each locked run counted before and its position
   * then (its statistics move with it, D69).
   */
  async flush(sql: Handle, counted: Map<string, { state: RunState; position: Path | null }>): Promise<void> {
    const changed = [...this.changed.values()];
    if (changed.length) {
      type TagRow = { workspace_id: string; contact_id: string; tag_id: string };
      const added: TagRow[] = [];
      const removed: TagRow[] = [];
      const fields = changed.map(({ workspaceId, id, contact }) => {
        const before = this.before.get(id)!;
        for (const t of contact.tags) if (!before.tags.has(t)) added.push({ workspace_id: workspaceId, contact_id: id, tag_id: t });
        for (const t of before.tags) if (!contact.tags.includes(t)) removed.push({ workspace_id: workspaceId, contact_id: id, tag_id: t });
        const keys = new Set([...Object.keys(before.fields), ...Object.keys(contact.fields)]);
        const set: Contact["fields"] = {};
        const unset: string[] = [];
        for (const k of keys) {
          if (!(k in contact.fields)) unset.push(k);
          else if (before.fields[k] !== contact.fields[k]) set[k] = contact.fields[k]!;
        }
        return { workspace_id: workspaceId, id, set, unset };
      });
      for (const ws of [...new Set(fields.map((f) => f.workspace_id))].sort()) {
        const of = (rows: { workspace_id: string }[]) => JSON.stringify(rows.filter((r) => r.workspace_id === ws));
        await sql(WRITE_CONTACTS, [of(added), of(removed), of(fields), ws]);
      }
    }
    const now = await touchContacts(sql, changed, new Date());
    const events = this.events.map((e) => {
      if (!("updated" in e)) return e;
      const { workspaceId, mode, contactId, at, cause } = e.updated;
      const data = now.get(contactId) as unknown as Prisma.InputJsonObject;
      return { workspaceId, mode, name: "contato.atualizado" as const, data, contactId, at, cause };
    });
    if (this.messages.length) await insertMessages(sql, this.messages);
    // D69: the runs as WRITE_RUNS leaves them (each as the last job of the batch left it), as
    // their statistics count them: what each counted before is taken away, what it counts now added.
    const counts = new FlowCounts();
    const after = new Map<string, RunState>();
    for (const change of this.runs) {
      const locked = counted.get(change.id)!;
      const position = change.status === "active" ? (JSON.parse(change.position) as unknown) : locked.position;
      const place = change.waiting_at === null ? position : (JSON.parse(change.waiting_at) as unknown);
      after.set(change.id, { ...locked.state, status: change.status, converted: change.converted_at !== null, place });
    }
    for (const [id, run] of after) counts.run(counted.get(id)!.state, run);
    for (const h of this.history) counts.entry(h, after.get(h.run_id)!);
    const runs = this.runs.map((r, i) => ({ ...r, i }));
    // One statement per workspace (D87): the runs with their history and statistics, then the
    // events with the jobs' settlements.
    for (const ws of [...new Set(runs.map((r) => r.workspace_id))].sort()) {
      await sql(WRITE_RUNS, [
        JSON.stringify(this.history.filter((h) => h.workspace_id === ws)),
        JSON.stringify(runs.filter((r) => r.workspace_id === ws)),
        ws,
        ...counts.params(ws),
      ]);
    }
    const settled = new Set<string>();
    for (const ws of [...new Set(this.settlements.map((j) => j.workspace_id))].sort()) {
      settled.add(ws);
      await sql(SETTLE_WITH_EVENTS, [
        settlementRows(this.settlements.filter((j) => j.workspace_id === ws)),
        ws,
        JSON.stringify(eventRows(events.filter((e) => e.workspaceId === ws))),
      ]);
    }
    await insertEvents(
      sql,
      events.filter((e) => !settled.has(e.workspaceId)),
    );
  }
}

// The batch's jobs of one workspace ($2) settled ($1, `settlementRows`), and its events ($3,
// `eventRows`) with their webhook deliveries, in one statement.
const SETTLE_WITH_EVENTS = `
  WITH ${settleJobsPart("$1", "$2")},
  ${eventsPart("flow_events", "$3")}
  SELECT 1`;

// The contacts' tags and fields as the batch left them: tags added ($1) and removed ($2),
// fields set and unset ($3), each contact's difference from what was read; of one workspace,
// $4 (D87: a statement per workspace).
const WRITE_CONTACTS = `
  WITH a AS (
    INSERT INTO contact_tags (workspace_id, contact_id, tag_id)
    SELECT x.workspace_id, x.contact_id, x.tag_id FROM ${jsonRows("$1", "workspace_id text, contact_id text, tag_id text")} x
    JOIN tags t ON t.workspace_id = $4 AND t.id = x.tag_id
    ON CONFLICT DO NOTHING
  ), d AS (
    DELETE FROM contact_tags t USING ${jsonRows("$2", "workspace_id text, contact_id text, tag_id text")} x
    WHERE t.workspace_id = $4 AND t.contact_id = x.contact_id AND t.tag_id = x.tag_id
  )
  UPDATE contacts c SET fields = (c.fields - ARRAY(SELECT jsonb_array_elements_text(x.unset))) || x.set
  FROM ${jsonRows("$3", "workspace_id text, id text, set jsonb, unset jsonb")} x WHERE c.workspace_id = $4 AND c.id = x.id`;

// The runs' new history entries ($1) and the runs as the batch left them ($2), of one workspace
// ($3, D87): a run changed by several jobs of the batch is written as the last one left it;
// and what they count in their flows' statistics ($4, $5: `FlowCounts.params`, counted ahead
// from the same rows). The status arrives typed (Citus refuses a cast, a stable function, in an
// UPDATE).
const WRITE_RUNS = `
  WITH h AS (
    INSERT INTO flow_run_history (workspace_id, run_id, at, kind, position, detail)
    SELECT e->>'workspace_id', e->>'run_id', (e->>'at')::timestamptz, e->>'kind', e->'position', e->'detail' FROM jsonb_array_elements($1::jsonb) e
  ), u AS (
    UPDATE flow_runs r SET
      status = x.status,
      reason = CASE WHEN x.ended_at IS NULL THEN r.reason ELSE x.reason END,
      ended_at = coalesce(x.ended_at, r.ended_at),
      position = CASE WHEN x.status = 'active' THEN x.position::jsonb ELSE r.position END,
      waiting_at = x.waiting_at::jsonb,
      next_step_at = x.next_step_at,
      wait = x.wait::jsonb,
      wait_event = x.wait_event,
      wait_message_id = x.wait_message_id,
      variables = x.variables::jsonb,
      converted_at = x.converted_at,
      converted_event_id = coalesce(x.converted_event_id, r.converted_event_id),
      last_message_id = x.last_message_id,
      updated_at = x.at
    FROM (
      SELECT DISTINCT ON (id) * FROM ${jsonRows(
        "$2",
        `workspace_id text, id text, status "RunStatus", reason text, ended_at timestamptz, position text, waiting_at text, next_step_at timestamptz,
        wait text, wait_event text, wait_message_id text, variables text, converted_at timestamptz, converted_event_id text, last_message_id text,
        at timestamptz, i int`,
      )} r ORDER BY id, i DESC
    ) x
    WHERE r.workspace_id = $3 AND r.id = x.id
  ), ${countsPart("$4", "$5", "$3")}
  SELECT 1`;
