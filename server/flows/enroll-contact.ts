import { checkContactPatch } from "../contacts/contact-patch.ts";
import type { Contact } from "../contacts/contact-schemas.ts";
import { createContactsPart, HANDED_JOBS, heldJobs, newContact, newContactRow, upsertContact } from "../contacts/upsert-contact.ts";
import { isConnectionError, type Database } from "../db/client.ts";
import { jsonRows } from "../db/json-rows.ts";
import { completeClaimsOf, keyInUse, type IdempotentEffect } from "../idempotency/idempotency.ts";
import { conflict, notFound } from "../lib/errors.ts";
import { groupCommitEach } from "../lib/group-commit.ts";
import { newId } from "../lib/ids.ts";
import { currentCause, type Cause } from "../observability/request-context.ts";
import { resolveRecipient } from "../messaging/resolve-recipient.ts";
import { insertJobs, jobRow, type StoredJob } from "../outbox/jobs.ts";
import { Handoff } from "../outbox/handoff.ts";
import type { Handle } from "../db/client.ts";
import { wakePipeline } from "../outbox/wake.ts";
import type { ZEnrollRequest } from "./flow-schemas.ts";
import { runView } from "./flow-views.ts";
import { addCountersOfRuns, historyCounters, runCounters, type Entry, type RunState } from "./stat-counters.ts";
import type { z } from "zod";
import type { CallerInWorkspace } from "../lib/caller.ts";
import { perWorkspace, rowsPerWorkspace } from "../lib/per-workspace.ts";

// The columns of the runs a statement writes (`RunInsert` but its cause), parameter `$1`.
const RUN_ROWS = jsonRows(
  "$1",
  `id text, workspace_id text, flow_id text, version int, contact_id text, mode "KeyMode", variables jsonb, key text, entered jsonb, at timestamptz, reentry boolean`,
);

// The parts of a statement that write the runs of its CTE `kept` (rows of `RUN_ROWS`), their
// first history entries and their first steps' jobs (the transactional outbox, `$2`), and add
// what the runs written count in their flows' statistics (D69, `$4`: counted ahead, as each run
// will be); `r` returns the `id`s written. `$3`: the one workspace of them all (D87).
const WRITE_RUNS = `
  r AS (
    INSERT INTO flow_runs (id, workspace_id, flow_id, version, contact_id, mode, status, position, variables, key, next_step_at, created_at, updated_at)
    SELECT id, workspace_id, flow_id, version, contact_id, mode, 'active', '[0]', variables, key, at, at, at FROM kept
    RETURNING id
  ), h AS (
    INSERT INTO flow_run_history (workspace_id, run_id, at, kind, position, detail)
    SELECT workspace_id, id, at, 'enrolled', '[0]', jsonb_build_object('version', version) || entered FROM kept
  ), j AS (
    ${insertJobs(2, "subject_id IN (SELECT id FROM kept)")}
  ), s AS (
    ${addCountersOfRuns("$4", "SELECT id FROM r", "$3")}
  )`;

// One statement writes the runs of a batch (`WRITE_RUNS`), leaving out each run whose contact
// already has an active run of its mode in its flow with the same key (D66), or, without a
// key, a keyless one when the flow does not allow re-entry (D18, D40); `id`s written. It runs
// after the contacts' rows are locked in the same transaction (LOCK_RUNS here, the trigger's
// lock in `trigger-flows.ts`), so its snapshot sees every run committed before.
const INSERT_RUNS = `
  WITH c AS (
    SELECT * FROM ${RUN_ROWS} AS c
  ), kept AS (
    SELECT * FROM c WHERE NOT EXISTS (
      SELECT 1 FROM flow_runs r WHERE r.workspace_id = $3 AND r.flow_id = c.flow_id AND r.contact_id = c.contact_id AND r.mode = c.mode AND r.status = 'active'
        AND CASE WHEN c.key IS NULL THEN NOT c.reentry AND r.key IS NULL ELSE r.key = c.key END
    )
  ), ${WRITE_RUNS}
  SELECT id FROM r`;

/** A run to write with `insertRuns`: its row, and what its history's first entry says beyond the version. */
export type RunInsert = {
  id: string;
  workspace_id: string;
  flow_id: string;
  version: number;
  contact_id: string;
  mode: "test" | "live";
  variables: Record<string, unknown>;
  key: string | null;
  entered: Record<string, unknown>;
  at: Date;
  reentry: boolean;
  cause: Cause;
};

/**
 * Writes runs with their first history entries and jobs in one statement, in the caller's
 * transaction, which holds their contacts' locks; the ids written (the others already had an
 * active run their key or the flow's re-entry rule refuses a second of).
 */
export async function insertRuns(sql: Handle, runs: readonly RunInsert[]): Promise<Set<string>> {
  if (runs.length === 0) return new Set();
  const jobs = runs.map((n) =>
    jobRow("flow.step", { position: [0] }, { subjectId: n.id, workspaceId: n.workspace_id, at: n.at, cause: n.cause }),
  );
  const rows = runs.map(({ cause: _, ...row }) => row);
  // One statement per workspace, `$3` (D87).
  const written = await rowsPerWorkspace(
    rows.map((row, i) => ({ row, job: jobs[i]!, counters: newRunCounters(row) })),
    (r) => r.row.workspace_id,
    (ws, group) =>
      sql<{ id: string }>(INSERT_RUNS, [
        JSON.stringify(group.map((g) => g.row)),
        JSON.stringify(group.map((g) => g.job)),
        ws,
        JSON.stringify(group.flatMap((g) => g.counters)),
      ]),
  );
  return new Set(written.map((r) => r.id));
}

/** What a run `INSERT_RUNS` writes counts (D69): active at its first step, and its `enrolled` entry; each counter names the run. */
function newRunCounters(row: Omit<RunInsert, "cause">) {
  const run: RunState = { ...row, status: "active", converted: false, place: [0] };
  const entry: Entry = { kind: "enrolled", position: [0], detail: null };
  return [...runCounters(run, 1), ...historyCounters(entry, run)].map((c) => ({ ...c, run_id: row.id }));
}

/** The batch key of a run's uniqueness (D18, D66): a keyed run is one per key; a keyless one per contact unless re-entry. */
export const runSlot = (n: { flowId: string; contactId: string; mode: string; key: string | null }) =>
  `${n.flowId} ${n.contactId} ${n.mode} ${n.key === null ? "-" : `k:${n.key}`}`;

// The contacts' rows, in (workspace, id) order (so two batches never wait on each other in a
// circle), serialize the enrollments of each contact; the flows' (shared) hold off a status
// change until the runs are written. One statement per workspace, `$3` (D87).
const LOCK_RUNS = `
  WITH c AS (
    SELECT id FROM contacts WHERE workspace_id = $3 AND id = ANY($2::text[]) ORDER BY id FOR UPDATE
  ),
  f AS (
    SELECT id, status::text AS status, version, allow_reentry FROM flows
    WHERE workspace_id = $3 AND id = ANY($1::text[]) FOR SHARE
  )
  SELECT (SELECT count(*) FROM c)::int AS contacts, coalesce((SELECT json_agg(f) FROM f), '[]') AS flows`;

/** An enrollment whose checks have passed, ready to write with the others of its batch. */
type NewRun = {
  id: string;
  actor: Pick<CallerInWorkspace, "workspaceId" | "mode" | "defaultCountry" | "templatesVersion">;
  flowId: string;
  contactId: string;
  variables: Record<string, unknown>;
  key: string | null;
  at: Date;
  view: ReturnType<typeof runView>;
  idempotency?: IdempotentEffect;
  /** D54: the request that enrolled, which the run's first job (and what it records) carries on. */
  cause: Cause;
};

/**
 * POST /flows/{flow_id}/enroll (D15, D18, D40). Checks in order: the flow exists (404
 * `flow_id`), the recipient (D15: 400/404 on `to.*`), the flow is active (409), and the
 * contact has no active run of the key's mode in the flow unless the flow allows re-entry
 * (409 `to`). A new phone or e-mail creates its contact only once the flow is known to accept.
 * The run starts at its first step at once, in the key's mode, on the flow's current version.
 */
export async function enrollContact(
  database: Database,
  actor: Pick<CallerInWorkspace, "workspaceId" | "mode" | "defaultCountry" | "templatesVersion">,
  flowId: string,
  input: z.output<typeof ZEnrollRequest>,
  idempotency?: IdempotentEffect,
) {
  // The two reads run together; their errors still come in the order above.
  const reading = resolveRecipient(database, actor, input.to);
  reading.catch(() => {}); // observed below, or not needed
  const flow = await flowStatus(database, { workspaceId: actor.workspaceId, flowId });
  if (flow === null) throw notFound("flow", "flow_id");
  const recipient = await reading;
  if (flow.status !== "active") throw notActive(flow.status);
  const enrollment = { actor, flowId, variables: input.variables ?? {}, key: input.key ?? null, idempotency, cause: currentCause() };
  const viewOf = (id: string, contactId: string, at: Date) =>
    runView({ id, flowId, contactId, status: "active", createdAt: at, key: input.key ?? null });
  let contactId: string;
  if (recipient.exists) contactId = recipient.contact.id;
  else if (idempotency) contactId = (await upsertContact(database, actor, recipient.draft)).id;
  else {
    // A new contact: it and its run are written by one statement, which no other enrollment
    // can race (the contact is not there to find until it commits). Not with an
    // Idempotency-Key: on Citus the claims that statement locked were never found held, and a
    // contact was written without its run.
    const at = new Date();
    const contact = newContact(await checkContactPatch(database, actor, recipient.draft), at);
    const id = newId("run");
    const view = viewOf(id, contact.id, at);
    const outcome = await writeNewRun(database, { ...enrollment, id, contactId: contact.id, at, view, contact, version: flow.version });
    if (outcome !== "retry") {
      wakePipeline();
      return view;
    }
    // Its phone or e-mail was written meanwhile (or the flow's version changed): as for a contact found.
    contactId = (await upsertContact(database, actor, recipient.draft)).id;
  }

  const at = new Date();
  const id = newId("run");
  const view = viewOf(id, contactId, at);
  const responseStored = await writeRun(database, { ...enrollment, id, contactId, at, view });
  if (responseStored) idempotency!.stored();
  wakePipeline();
  return view;
}

// The statuses of a workspace's (`$1`) flows asked.
const FLOW_STATUSES = `SELECT f.id, f.status::text AS status, f.version FROM flows f WHERE f.workspace_id = $1 AND f.id = ANY($2::text[])`;

type FlowStatus = { status: string; version: number };

/** A flow's status and version, null if the workspace has no such flow; concurrent reads of a process share one statement per workspace. */
const flowStatus = groupCommitEach(async (database: Database, keys: readonly { workspaceId: string; flowId: string }[]) =>
  perWorkspace(
    keys,
    (k) => k.workspaceId,
    async (ws, group) => {
      const found = new Map(
        (await database.query<FlowStatus & { id: string }>(FLOW_STATUSES, [ws, group.map((k) => k.flowId)])).map((r) => [r.id, r]),
      );
      return group.map((k) => found.get(k.flowId) ?? null);
    },
  ),
);

/**
 * Writes an enrollment: concurrent enrollments of this process share one transaction
 * (`groupCommit`): the lock of their contacts and flows, one statement for their runs,
 * histories and jobs, and one commit. Each is refused as if alone: a flow no longer active, or
 * an active run of its contact (one written earlier in the batch included). A batch that fails
 * as a whole (but for an unreachable database) is written again enrollment by enrollment.
 * Resolves to whether it stored the enrollment's idempotent response with the run.
 */
const writeRun = groupCommitEach(writeRuns, { alone: (err) => !isConnectionError(err) });

async function writeRuns(database: Database, batch: readonly NewRun[]): Promise<(boolean | Error)[]> {
  const results = await database.transaction(async (sql) => {
    const locked = await rowsPerWorkspace(
      batch,
      (n) => n.actor.workspaceId,
      async (ws, group) =>
        (
          await sql<{ flows: { id: string; status: string; version: number; allow_reentry: boolean }[] }>(LOCK_RUNS, [
            [...new Set(group.map((n) => n.flowId))],
            [...new Set(group.map((n) => n.contactId))],
            ws,
          ])
        )[0]!.flows,
    );
    const flows = new Map(locked.map((f) => [f.id, f]));
    const results: (undefined | Error)[] = batch.map(() => undefined);
    const taken = new Set<string>(); // the slots of runs written earlier in the batch (`runSlot`)
    const rows: RunInsert[] = [];
    for (const [i, n] of batch.entries()) {
      const flow = flows.get(n.flowId);
      const slot = runSlot({ ...n, mode: n.actor.mode });
      if (!flow) results[i] = notFound("flow", "flow_id");
      else if (flow.status !== "active") results[i] = notActive(flow.status);
      else if ((n.key !== null || !flow.allow_reentry) && taken.has(slot)) results[i] = alreadyEnrolled(n.key);
      else {
        taken.add(slot);
        rows.push({ ...newRunRow(n, flow.version, flow.allow_reentry), cause: n.cause });
      }
    }
    const written = await insertRuns(sql, rows);
    const held: NewRun[] = [];
    for (const [i, n] of batch.entries()) {
      if (results[i]) continue;
      if (!written.has(n.id)) results[i] = alreadyEnrolled(n.key);
      else if (n.idempotency) held.push(n);
    }
    // The runs and the stored idempotent responses commit together (D46), in one statement. A
    // claim taken over meanwhile rolls the batch back, and each is written again alone.
    if (held.length) {
      const stored = await completeClaimsOf(
        sql,
        held.map((n) => n.idempotency!.completion(n.id, n.view)),
      );
      if (stored.size < held.length) throw batch.length === 1 ? keyInUse() : new Error("a claim was taken over during an enrollment batch");
    }
    return results;
  });
  // A run written is written with its stored response, if it came with one.
  return results.map((err, i) => err ?? batch[i]!.idempotency !== undefined);
}

/** The enrollment of a contact not written yet: the contact, and the flow's version its run starts on (read with its status). */
type NewContactRun = NewRun & { contact: Contact; version: number };

// The enrollments of new contacts of one workspace ($3) in one statement, with no transaction
// around it: their flows ($5) held for share (a status change waits until the runs are written,
// and one that committed first is what the statement sees: D6); each contact ($6) written with
// its tags and `contato.criado` (`createContactsPart`; its webhook deliveries claimed by `$7`,
// `$8`) only while its flow is active on the version its run was counted for; and the run
// (`WRITE_RUNS`) only with its contact, so a contact whose phone or e-mail was written meanwhile
// gets neither. A new contact has no run to refuse a second of (D18, D66): no other statement
// can see it before this one commits.
const ENROLL_NEW = `
  WITH f AS (
    SELECT id, status::text AS status, version FROM flows WHERE workspace_id = $3 AND id = ANY($5::text[]) FOR SHARE
  ), c AS (
    SELECT * FROM ${RUN_ROWS} AS c
  ), ${createContactsPart(
    "$6",
    { owner: "$7::text", ms: "$8::double precision" },
    "x.id IN (SELECT c.contact_id FROM c JOIN f ON f.id = c.flow_id AND f.status = 'active' AND f.version = c.version)",
  )},
  kept AS (SELECT * FROM c WHERE c.contact_id IN (SELECT id FROM ins)), ${WRITE_RUNS}
  SELECT ARRAY(SELECT id FROM r) AS written,
    coalesce((SELECT json_agg(f) FROM f), '[]') AS flows, ${HANDED_JOBS}`;

/**
 * Writes the enrollment of a new contact: concurrent ones of this process share one statement
 * per workspace (`groupCommit`), each written as if alone. Resolves to "written", or "retry"
 * when its contact was not written (its phone
 * or e-mail exists by now, an earlier enrollment of the batch included, or the flow has a new
 * version): the caller then enrolls the contact found, under its lock.
 */
const writeNewRun = groupCommitEach(writeNewRuns, { alone: (err) => !isConnectionError(err) });

type NewRunOutcome = "written" | "retry";

async function writeNewRuns(database: Database, batch: readonly NewContactRun[]): Promise<(NewRunOutcome | Error)[]> {
  return perWorkspace(
    batch,
    (n) => n.actor.workspaceId,
    async (ws, group): Promise<(NewRunOutcome | Error)[]> => {
      const rows = group.map((n) => newRunRow(n, n.version, false));
      const jobs = group.map((n) => jobRow("flow.step", { position: [0] }, { subjectId: n.id, workspaceId: ws, at: n.at, cause: n.cause }));
      const contacts = group.map((n) =>
        newContactRow({ contact: n.contact, actor: n.actor, at: n.at, cause: [n.cause.requestId, n.cause.traceparent] }),
      );
      const handoff = Handoff.take();
      const lease = handoff?.leaseOf("webhook.deliver") ?? null;
      type Written = {
        written: string[];
        flows: { id: string; status: string }[];
        handed: (StoredJob & Record<"run_at" | "created_at", string>)[];
      };
      const [row] = await database.query<Written>(ENROLL_NEW, [
        JSON.stringify(rows),
        JSON.stringify(jobs),
        ws,
        JSON.stringify(rows.flatMap(newRunCounters)),
        [...new Set(group.map((n) => n.flowId))],
        JSON.stringify(contacts),
        lease?.owner ?? null,
        lease?.ms ?? null,
      ]);
      handoff?.hold(heldJobs(row!.handed));
      handoff?.commit(() => true);
      const written = new Set(row!.written);
      const flows = new Map(row!.flows.map((f) => [f.id, f.status]));
      return group.map((n) => {
        const status = flows.get(n.flowId);
        if (status === undefined) return notFound("flow", "flow_id");
        if (status !== "active") return notActive(status);
        return written.has(n.id) ? "written" : "retry";
      });
    },
  );
}

/** The row `RUN_ROWS` reads for an enrollment, on `version` of its flow. */
function newRunRow(n: NewRun, version: number, reentry: boolean): Omit<RunInsert, "cause"> {
  return {
    id: n.id,
    workspace_id: n.actor.workspaceId,
    flow_id: n.flowId,
    version,
    contact_id: n.contactId,
    mode: n.actor.mode,
    variables: n.variables,
    key: n.key,
    entered: {},
    at: n.at,
    reentry,
  };
}

const alreadyEnrolled = (key: string | null) =>
  key === null
    ? conflict("already_enrolled", "The contact already has an active run in this flow, which does not allow re-entry.", "to")
    : conflict("already_enrolled", "The contact already has an active run with this key in this flow.", "key");

const notActive = (status: string) =>
  conflict("flow_not_active", `The flow is ${status}; only an active flow accepts enrollment.`, "flow_id");
