import { isDeepStrictEqual } from "node:util";
import type { Contact } from "../contacts/contact-schemas.ts";
import { readContacts } from "../contacts/get-contact.ts";
import type { Database, Handle } from "../db/client.ts";
import { jsonRows } from "../db/json-rows.ts";
import { insertEvents } from "../events/record-event.ts";
import type { KeyMode } from "../generated/prisma/enums.ts";
import { invalid, notFound } from "../lib/errors.ts";
import type { SendMessageRequest } from "../messaging/message-schemas.ts";
import type { Scalar } from "../messaging/render.ts";
import { renderContent } from "../messaging/send-message.ts";
import { currentCause } from "../observability/request-context.ts";
import { checkDefinition } from "./check-definition.ts";
import { addDuration, type FlowDefinitionInput, type Step } from "./flow-schemas.ts";
import { runVariables } from "./run-waits.ts";
import { enterList, holds, nextPath, pathsById, stepAt, stepId, stepParam, type Path } from "./step-path.ts";
import { FlowCounts, runState, type RunState } from "./stat-counters.ts";

// D70: what saving a new version does to the runs already in the flow. `keep` (the default)
// leaves each run on its version. `move` puts each active run on the new version at the step
// with the same id; a run whose step is gone continues at the next step of its old version
// that still exists, or completes with the reason `step_removed`. A run waiting in a `wait` or
// `wait_for` keeps its due time (and a `wait_for` that still exists keeps what it waits for).
// Runs move in batches, one transaction each, locked in id order as the run engine locks them.
// The preview (`previewEdit`) computes the same plan and writes nothing.

/** Where a run at `position` of `from` continues in `to`: a position, or null to complete (`step_removed`). */
export function planMove(from: Step[], to: Step[], position: Path | null): { to: Path | null; removed: boolean } {
  if (!position) return { to: null, removed: false }; // after a last-step wait: it completes when due
  const ids = pathsById(to);
  for (let at: Path | null = position; at; at = nextPath(from, at)) {
    const step = stepAt(from, at);
    const found = step && ids.get(stepId(step, at));
    if (found) return { to: found, removed: false };
  }
  return { to: null, removed: true };
}

/** The same step (by id) in `to`, or null. */
function samePlace(from: Step[], to: Step[], at: Path | null): Path | null {
  const step = at && stepAt(from, at);
  return (step && pathsById(to).get(stepId(step, at!))) ?? null;
}

/** Whether a run moved to `at` of `to` goes on with the `wait_for` it waits in (same id): it keeps what it waits for and its timeout. */
function keepsWait(run: ActiveRun, from: Step[], to: Step[], at: Path | null): boolean {
  return !!run.wait && !!at && stepAt(to, at)?.type === "wait_for" && !!samePlace(from, to, run.wait.position);
}

/** Whether the run waits in the `wait_for` at its position now (its job comes back at the timeout). */
const waitsHere = (run: ActiveRun) => !!run.wait && !!run.position && isDeepStrictEqual(run.wait.position, run.position);

type ActiveRun = {
  id: string;
  workspace_id: string;
  contact_id: string;
  mode: KeyMode;
  version: number;
  position: Path | null;
  waiting_at: Path | null;
  key: string | null;
  variables: Record<string, Scalar>;
  next_step_at: Date | null;
  wait: { position: Path } | null;
  converted_at: Date | null;
};

const RUN_COLUMNS = `id, workspace_id, contact_id, mode::text AS mode, version, position, waiting_at, key, variables, next_step_at, wait, converted_at`;

/** The documents' steps of the versions `versions` of a flow of `workspaceId`, by version. */
async function stepsOf(sql: Handle, workspaceId: string, flowId: string, versions: number[]): Promise<Map<number, Step[]>> {
  const rows = await sql<{ version: number; steps: Step[] }>(
    `SELECT version, steps FROM flow_versions WHERE workspace_id = $1 AND flow_id = $2 AND version = ANY($3::int[])`,
    [workspaceId, flowId, [...new Set(versions)]],
  );
  return new Map(rows.map((r) => [r.version, r.steps]));
}

const BATCH = 500;

// One batch moved ($1 the runs' plans, $2 the new version, $3 when): the runs, their pending jobs, their
// history. The time is a parameter: Citus refuses now() inside CASE on a distributed table (D87).
const MOVE = `
  WITH x AS (
    SELECT * FROM ${jsonRows("$1", "workspace_id text, id text, position jsonb, waiting_at jsonb, keep_wait boolean, removed boolean, from_version int, from_step text, reached jsonb")} x
  ), r AS (
    UPDATE flow_runs r SET
      version = $2,
      position = CASE WHEN x.removed THEN r.position ELSE coalesce(x.position, 'null'::jsonb) END,
      waiting_at = x.waiting_at,
      wait = CASE WHEN x.keep_wait THEN jsonb_set(r.wait, '{position}', x.position) END,
      wait_event = CASE WHEN x.keep_wait THEN r.wait_event END,
      wait_message_id = CASE WHEN x.keep_wait THEN r.wait_message_id END,
      status = CASE WHEN x.removed THEN 'completed'::"RunStatus" ELSE r.status END,
      reason = CASE WHEN x.removed THEN 'step_removed' ELSE r.reason END,
      ended_at = CASE WHEN x.removed THEN $3::timestamptz ELSE r.ended_at END,
      next_step_at = CASE WHEN x.removed THEN NULL ELSE r.next_step_at END,
      updated_at = now()
    FROM x WHERE r.workspace_id = x.workspace_id AND r.id = x.id
    RETURNING r.id, ${runState("r")}
  ), j AS (
    UPDATE jobs SET payload = jsonb_set(payload, '{position}', coalesce(x.position, 'null'::jsonb))
    FROM x WHERE jobs.workspace_id = x.workspace_id AND jobs.kind = 'flow.step' AND jobs.subject_id = x.id AND NOT x.removed
  ), d AS (
    DELETE FROM jobs USING x WHERE jobs.workspace_id = x.workspace_id AND jobs.kind = 'flow.step' AND jobs.subject_id = x.id AND x.removed
  ), h AS (
    INSERT INTO flow_run_history (workspace_id, run_id, kind, position, detail)
    SELECT workspace_id, id, 'moved', x.position, jsonb_build_object('from_version', x.from_version, 'to_version', $2::int, 'from', x.from_step)
      || CASE WHEN x.reached IS NULL THEN '{}'::jsonb ELSE jsonb_build_object('reached', x.reached) END FROM x
    UNION ALL SELECT workspace_id, id, 'completed', NULL, '{"reason": "step_removed"}'::jsonb FROM x WHERE x.removed
  )
  SELECT * FROM r`;

/**
 * `move`: every active run of the flow not on `version` continues on it (see above); how many
 * moved and completed. Every statement names the flow's workspace (D87: Citus locks the runs
 * only on the workspace's own shard).
 */
export async function moveRuns(
  database: Database,
  workspaceId: string,
  flowId: string,
  version: number,
): Promise<{ moved: number; completed: number }> {
  const target = (await stepsOf(database.query, workspaceId, flowId, [version])).get(version)!;
  let after = "";
  let moved = 0;
  let completed = 0;
  for (;;) {
    const done = await database.transaction(async (sql) => {
      const runs = await sql<ActiveRun>(
        `SELECT ${RUN_COLUMNS} FROM flow_runs WHERE workspace_id = $4 AND flow_id = $1 AND status = 'active' AND version <> $2 AND id > $3
         ORDER BY id LIMIT ${BATCH} FOR UPDATE`,
        [flowId, version, after, workspaceId],
      );
      if (runs.length === 0) return true;
      after = runs[runs.length - 1]!.id;
      const versions = await stepsOf(
        sql,
        workspaceId,
        flowId,
        runs.map((r) => r.version),
      );
      const plans = runs.map((run) => {
        const from = versions.get(run.version) ?? [];
        const plan = planMove(from, target, run.position);
        const waitingAt = samePlace(from, target, run.waiting_at);
        const keepWait = keepsWait(run, from, target, plan.to);
        const current = run.waiting_at ?? run.position;
        const fromStep = current && stepAt(from, current);
        const waitsIn = keepWait ? plan.to : waitingAt;
        const waitType = waitsIn && stepAt(target, waitsIn)?.type;
        return {
          workspace_id: run.workspace_id,
          id: run.id,
          position: plan.to,
          waiting_at: keepWait ? plan.to : waitingAt,
          keep_wait: keepWait,
          removed: plan.removed,
          from_version: run.version,
          from_step: fromStep ? stepId(fromStep, current!) : null,
          // D69: the wait it goes on with is a step it reached on this version (counted by the `moved` entry).
          reached: waitType === "wait" || waitType === "wait_for" ? waitsIn : null,
        };
      });
      const written = await sql<RunState & { id: string }>(MOVE, [JSON.stringify(plans), version, new Date()]);
      // D69, D70: each run's statistics move with it; its `moved` entry counts the wait it goes on with.
      const movedRuns = new Map(written.map((r) => [r.id, r]));
      const counts = new FlowCounts();
      runs.forEach((run, i) => {
        const moved = movedRuns.get(run.id);
        if (!moved) return;
        const before = {
          workspace_id: moved.workspace_id,
          flow_id: flowId,
          mode: run.mode,
          version: run.version,
          status: "active",
          converted: run.converted_at !== null,
        };
        counts.run({ ...before, place: run.waiting_at ?? run.position }, moved);
        counts.entry({ kind: "moved", position: plans[i]!.position, detail: { reached: plans[i]!.reached } }, moved);
        if (plans[i]!.removed) counts.entry({ kind: "completed", position: null, detail: null }, moved);
      });
      await counts.write(sql);
      const ended = runs.filter((_, i) => plans[i]!.removed);
      const at = new Date();
      await insertEvents(
        sql,
        ended.map((run) => ({
          workspaceId: run.workspace_id,
          mode: run.mode,
          name: "fluxo.concluido" as const,
          data: { id: run.id, flow_id: flowId, contact: run.contact_id, status: "completed", reason: "step_removed" },
          contactId: run.contact_id,
          at,
          cause: currentCause(),
        })),
      );
      moved += runs.length - ended.length;
      completed += ended.length;
      return runs.length < BATCH;
    });
    if (done) return { moved, completed };
  }
}

/**
 * D83: a run's next action: which step, what it does, when, and the text a send would carry; a
 * `wait_for` also says what it waits for (`for`: the event's name or the message outcome, as a
 * `waiting` history entry does, D82) and `until`, when it times out at the latest.
 */
export type NextAction = {
  step: string | null;
  action: "send" | "wait_for" | "complete";
  at: string | null;
  text: string | null;
  for?: string;
  until?: string;
};

/**
 * What the run at `position` of `steps` does next, from `due` (when its job is due): waits are
 * passed by adding their time, branches are taken on the contact as it is, tags and fields go
 * by; the first send, wait_for or end is the answer. `waiting`: the run already waits in the
 * `wait_for` at `position`, so `due` is its timeout (else a wait_for times out `timeout` after it begins).
 */
export function nextAction(
  steps: Step[],
  position: Path | null,
  run: ActiveRun,
  contact: Contact | undefined,
  due: Date,
  waiting = false,
): NextAction {
  let at = due;
  for (let p: Path | null = position, n = 0; p && n < 1_000; n++) {
    const step = stepAt(steps, p);
    if (!step) break;
    switch (step.type) {
      case "send":
        return { step: stepId(step, p), action: "send", at: at.toISOString(), text: contact ? sendText(step, run, contact) : null };
      case "wait_for": {
        const until = waiting && n === 0 ? at : addDuration(step.timeout, at);
        const waitsFor = step.message ?? step.event ?? "";
        return { step: stepId(step, p), action: "wait_for", at: at.toISOString(), text: null, for: waitsFor, until: until.toISOString() };
      }
      case "exit":
        return { step: stepId(step, p), action: "complete", at: at.toISOString(), text: null };
      case "wait":
        at = step.until ? new Date(Math.max(at.getTime(), new Date(step.until).getTime())) : addDuration(step.duration!, at);
        p = nextPath(steps, p);
        break;
      case "branch":
        p = enterList(steps, p, contact && holds(step.if, contact) ? "then" : "else");
        break;
      default:
        p = nextPath(steps, p);
    }
  }
  return { step: null, action: "complete", at: at.toISOString(), text: null };
}

/** The rendered text (or subject) a send step would carry for the run's contact. */
function sendText(step: Extract<Step, { type: "send" }>, run: ActiveRun, contact: Contact): string | null {
  if (step.channel === "whatsapp" && step.whatsapp?.template && !step.whatsapp.body) return step.whatsapp.template.name;
  const request = { ...step, to: { contact_id: contact.id }, variables: runVariables(run) } as SendMessageRequest;
  try {
    const content = renderContent(request, contact, { missing: "empty" }) as { body?: string; subject?: string };
    return content.subject ?? content.body ?? null;
  } catch {
    return null;
  }
}

const PREVIEW_RUNS = 1_000;

/**
 * D70, D83: what saving `input` (a flow document with `migrate`) would do to the flow's active
 * runs, changing nothing: exact counts for all of them, and for the first 1,000 (oldest first)
 * where each is, and its next action under the old and the new version. The document is
 * checked as a save checks it, with the same `param` paths.
 */
export async function previewEdit(database: Database, caller: { workspaceId: string }, flowId: string, input: FlowDefinitionInput) {
  const definition = await checkDefinition(database, caller.workspaceId, input);
  const [flow] = await database.query<{ status: string; version: number }>(
    `SELECT status::text AS status, version FROM flows WHERE id = $1 AND workspace_id = $2`,
    [flowId, caller.workspaceId],
  );
  if (!flow) throw notFound("flow", "flow_id");
  checkMigrate(definition.migrate, flow.status);
  const move = definition.migrate === "move";
  const groups = await database.query<{ version: number; position: Path | null; runs: number }>(
    `SELECT version, position, count(*)::int AS runs FROM flow_runs WHERE workspace_id = $2 AND flow_id = $1 AND status = 'active' GROUP BY 1, 2`,
    [flowId, caller.workspaceId],
  );
  const runs = await database.query<ActiveRun>(
    `SELECT ${RUN_COLUMNS} FROM flow_runs WHERE workspace_id = $2 AND flow_id = $1 AND status = 'active' ORDER BY created_at, id LIMIT ${PREVIEW_RUNS}`,
    [flowId, caller.workspaceId],
  );
  const versions = await stepsOf(database.query, caller.workspaceId, flowId, [
    ...groups.map((g) => g.version),
    ...runs.map((r) => r.version),
  ]);
  const counts = { runs: 0, moved: 0, kept: 0, completed: 0 };
  for (const g of groups) {
    counts.runs += g.runs;
    if (!move) counts.kept += g.runs;
    else if (planMove(versions.get(g.version) ?? [], definition.steps, g.position).removed) counts.completed += g.runs;
    else counts.moved += g.runs;
  }
  const contacts = await readContacts(
    database.query,
    runs.map((r) => ({ workspaceId: r.workspace_id, id: r.contact_id })),
  );
  const now = new Date();
  return {
    counts,
    runs: runs.map((run) => {
      const steps = versions.get(run.version) ?? [];
      const contact = contacts.get(run.contact_id);
      const due = run.next_step_at && new Date(run.next_step_at) > now ? new Date(run.next_step_at) : now;
      const place = run.waiting_at ?? run.position;
      const step = place && stepAt(steps, place);
      const old = nextAction(steps, run.position, run, contact, due, waitsHere(run));
      let next = old;
      if (move) {
        const plan = planMove(steps, definition.steps, run.position);
        next = plan.removed
          ? { step: null, action: "complete", at: now.toISOString(), text: null }
          : nextAction(definition.steps, plan.to, run, contact, due, waitsHere(run) && keepsWait(run, steps, definition.steps, plan.to));
      }
      return {
        run_id: run.id,
        contact_id: run.contact_id,
        current: step ? { id: stepId(step, place!), path: stepParam(place!) } : null,
        next: { old, new: next },
      };
    }),
  };
}

/** D70: `migrate` chooses what happens to runs; a draft has none, so it is refused there. */
export function checkMigrate(migrate: unknown, status: string): void {
  if (migrate !== undefined && status === "draft") {
    throw invalid("parameter_invalid", "migrate: a draft flow has no runs to keep or move; save it without migrate.", "migrate");
  }
}
