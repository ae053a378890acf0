import type { ChannelType } from "../generated/prisma/enums.ts";
import { isConnectionError, type Database, type Handle } from "../db/client.ts";
import { completeClaims, heldClaims, keyInUse, type Completion, type IdempotentEffect } from "../idempotency/idempotency.ts";
import { groupCommitEach, writeOrEach } from "../lib/group-commit.ts";
import { newId } from "../lib/ids.ts";
import { insertJobs, jobRow } from "../outbox/jobs.ts";
import { Handoff } from "../outbox/handoff.ts";
import { wakePipeline } from "../outbox/wake.ts";
import type { DispatchRow } from "./dispatch-message.ts";
import { countArgs, countLiveMessage, countWith, usagePeriod, type CountRow } from "../usage/quota.ts";
import { currentCause, type Cause } from "../observability/request-context.ts";
import { simulatedOutcome } from "./test-mode.ts";
import type { Content } from "../providers/provider.ts";
import type { CallerInWorkspace } from "../lib/caller.ts";
import { insertHistory } from "./message-history.ts";
import { rowsPerWorkspace } from "../lib/per-workspace.ts";
import { channelOf } from "../channels/registry.ts";

export type NewMessage = {
  sender: Pick<CallerInWorkspace, "workspaceId" | "mode" | "defaultCountry" | "templatesVersion">;
  channel: ChannelType;
  /** The channel a live message goes through; null for test messages (D35). */
  channelId: string | null;
  contactId: string;
  address: string;
  content: Content;
  source: "api" | "flow";
  /** The API key that sent it (API sends), shown as the message's source in the dashboard. */
  apiKeyId?: string | null;
  /** The flow run whose send step wrote it (flow sends). */
  runId?: string | null;
  /** That run's flow (flow sends): the e-mail's Feedback-ID names it (D92). */
  flowId?: string | null;
  /** D57: the caller's correlation data; none for flow sends. */
  metadata?: Record<string, string>;
  /** D76: when it is due (`send_at`); its outbox job waits until then. Sent at once when absent. */
  sendAt?: Date | null;
};

/**
 * A message ready to write: its id and time, the response an idempotent request stores with
 * it, and the work that accepted it (D54: its job, and so its events, carry that request on,
 * also when a batch writes the messages of several requests).
 */
export type Accepted = { id: string; message: NewMessage; at: Date; cause: Cause; response?: { effect: IdempotentEffect; body: unknown } };

const MESSAGE_COLUMNS = `id, workspace_id, mode, channel, channel_id, contact_id, "to", status, content, source, created_at, metadata, api_key_id, run_id,
  scheduled_at, sms`;

// One statement writes accepted messages, their first history entries, their outbox jobs
// (ARCHITECTURE "Shape": transactional outbox; rows built by the outbox's `jobRow`) and the
// responses idempotent requests store (D46): a message whose claim was taken over meanwhile is
// left out, with its job, and `kept` names the messages written. Each table's part comes from
// the module that writes that table, assembled here into the one statement that group commit
// needs: the messages (here), their history (`insertHistory`), their jobs (the outbox's
// `insertJobs`), the stored responses and the claims still held (idempotency's
// `completeClaims`, `heldClaims`), and the count against the limits (usage's `countArgs`).
// Parameters: `$1` the responses (`Completion`s), `$2` the messages, `$3` their jobs, `$4` the one workspace of them all (D87), then the
// count's.
const WRITE_KEPT = `
  m AS (INSERT INTO messages (${MESSAGE_COLUMNS}) SELECT ${MESSAGE_COLUMNS} FROM kept),
  h AS (${insertHistory(`SELECT workspace_id, id, created_at, 'status', 'queued', jsonb_strip_nulls(jsonb_build_object('source', source, 'scheduled_at', scheduled_at)) FROM kept`)}),
  j AS (${insertJobs(3, "subject_id IN (SELECT id FROM kept)")})`;

// A message of `$2` that no request's claim (`$1`) names, or whose claim is in `claims` (a CTE
// of the claims still the requests').
const claimHeld = (claims: string) =>
  `m.id NOT IN (SELECT ref FROM json_to_recordset($1::json) AS c(ref text)) OR m.id IN (SELECT ref FROM ${claims})`;

const INSERT_MESSAGES = `
  WITH done AS (${completeClaims("$1", "true", "$4")}),
  kept AS (SELECT * FROM json_populate_recordset(NULL::messages, $2::json) AS m WHERE ${claimHeld("done")}),
  ${WRITE_KEPT}
  SELECT ARRAY(SELECT id FROM kept) AS kept`;

// Counted: the live messages of one workspace, channel and day, counted against the limits by
// the same statement (`count_live_messages`, D25), and only the first that fit written, so the
// count and the write commit together in one round trip. The claims still held are locked
// first, so the messages counted (`offered`) are the ones that can be written.
const INSERT_COUNTED = `
  WITH held AS (${heldClaims("$1", "$4")}),
  offered AS (
    SELECT m.*, row_number() OVER (ORDER BY m.ordinality) AS place
    FROM json_populate_recordset(NULL::messages, $2::json) WITH ORDINALITY AS m
    WHERE ${claimHeld("held")}
  ),
  counted AS (SELECT * FROM count_live_messages(
    ${countArgs(4, (n) => `least(${n}, (SELECT count(*) FROM offered)::int)`)},
    ARRAY(SELECT (sms->>'segments')::int FROM offered ORDER BY place)
  )),
  kept AS (SELECT * FROM offered WHERE place <= (SELECT accepted FROM counted)),
  done AS (${completeClaims("$1", "c.ref IN (SELECT id FROM kept)", "$4")}),
  ${WRITE_KEPT}
  SELECT counted.*, ARRAY(SELECT id FROM offered) AS offered, ARRAY(SELECT id FROM kept) AS kept FROM counted`;

/** D97: what an sms keeps of its rendered body, its encoding and segments, also counted in its usage; null on other channels. */
const segmentsOf = (m: NewMessage) => channelOf(m.channel).segments?.(m.content) ?? null;

/** The statement's parameters for `batch`: the responses to store, the messages and their jobs. */
function insertParams(batch: readonly Accepted[], handoff: Handoff | null): unknown[] {
  const completions: Completion[] = [];
  const rows = batch.map(({ id, message: m, at, response }) => {
    if (response) completions.push(response.effect.completion(id, response.body));
    return {
      id,
      workspace_id: m.sender.workspaceId,
      mode: m.sender.mode,
      channel: m.channel,
      channel_id: m.channelId,
      contact_id: m.contactId,
      to: m.address,
      status: "queued",
      content: m.content,
      source: m.source,
      created_at: at,
      metadata: m.metadata ?? {},
      api_key_id: m.apiKeyId ?? null,
      run_id: m.runId ?? null,
      scheduled_at: m.sendAt ?? null,
      sms: segmentsOf(m),
    };
  });
  const jobs = batch.map(({ id, message: m, at, cause }) => {
    // D76: a scheduled message's job is due at its `send_at`; the pipeline claims it then, as
    // any due job (no scan of scheduled messages). A test message's simulated clock starts
    // then too (D86): its steps are timed from the job's `created_at`.
    const runAt = m.sendAt && m.sendAt > at ? m.sendAt : at;
    const target = { subjectId: id, workspaceId: m.sender.workspaceId, channelId: m.channelId, at, runAt, cause };
    if (m.sender.mode === "test") {
      return jobRow("message.simulate", { outcome: simulatedOutcome(m.address), step: 0 }, { ...target, at: runAt });
    }
    const row = jobRow("message.dispatch", {}, target);
    return handoff && runAt === at ? handoff.lease(row, dispatchRow(id, m, at)) : row;
  });
  return [JSON.stringify(completions), JSON.stringify(rows), JSON.stringify(jobs)];
}

/**
 * Writes accepted messages (live ones already counted against the limits, `countedMessage`) in
 * one statement per workspace (D87); the ids written: all, but those whose idempotent request
 * lost its claim meanwhile. Their jobs are written unclaimed: only `insertCounted` hands jobs over.
 */
export async function insertMessages(sql: Handle, batch: readonly Accepted[]): Promise<Set<string>> {
  const kept = await rowsPerWorkspace(
    batch,
    (a) => a.message.sender.workspaceId,
    async (ws, group) => (await sql<{ kept: string[] }>(INSERT_MESSAGES, [...insertParams(group, null), ws]))[0]!.kept,
  );
  return new Set(kept);
}

/**
 * Counts and writes live messages of one workspace, channel and UTC day (D25), in their order,
 * in one statement: the first that fit are written, each later one gets the limit it met. The
 * jobs of those written start at once in this process's pipeline worker when it has room
 * (`Handoff`, one per statement: a statement that fails hands nothing over); else it is woken.
 */
async function insertCounted(sql: Handle, group: readonly Accepted[]): Promise<(undefined | Error)[]> {
  const { sender, channel } = group[0]!.message;
  const handoff = Handoff.take();
  const params = insertParams(group, handoff); // once: the hand-off holds the jobs it leased
  handoff?.begin();
  let written: { offered: string[]; kept: string[] } = { offered: [], kept: [] };
  const { refusal } = await countWith(sender.workspaceId, channel, group[0]!.at, group.length, async (args) => {
    const [row] = await sql<CountRow & { offered: string[]; kept: string[] }>(INSERT_COUNTED, [...params, ...args]);
    written = row!;
    return row!;
  });
  const offered = new Set(written.offered);
  const kept = new Set(written.kept);
  const started = handoff?.commit((id) => kept.has(id)) ?? 0;
  if (started < kept.size) wakePipeline();
  return group.map((a) => (kept.has(a.id) ? undefined : offered.has(a.id) ? refusal! : keyInUse()));
}

/**
 * A message ready to write with others (`insertMessages`), a flow send step's: a live message
 * is first counted against the workspace's limits (D25), so call it inside the transaction
 * that will write it.
 */
export async function countedMessage(sql: Handle, message: NewMessage, at: Date = new Date()): Promise<Accepted> {
  if (message.sender.mode === "live") {
    await countLiveMessage(sql, message.sender.workspaceId, message.channel, at, segmentsOf(message)?.segments ?? null);
  }
  return { id: newId("message"), message, at, cause: currentCause() };
}

/** Writes one message with its history and its outbox job (`countedMessage`, then `insertMessages`); its id. */
export async function insertMessage(sql: Handle, message: NewMessage, at: Date = new Date()): Promise<string> {
  const accepted = await countedMessage(sql, message, at);
  await insertMessages(sql, [accepted]);
  return accepted.id;
}

/** Whether a failed write is written again message by message: not when the database cannot be reached. */
const alone = (err: unknown) => !isConnectionError(err);

/**
 * Writes an API send (`sendMessage`): concurrent sends of this process share their statements
 * (`groupCommit`). The test messages of a batch are one statement; the live ones one statement
 * for each workspace, channel and day, which counts them against the limits, each as if alone
 * and in order (D25), and writes those that fit. A part of a batch that fails (but for an
 * unreachable database) is written again message by message, so a fault stays with its message.
 * Resolves to whether it stored the message's idempotent response (`Accepted.response`) with it.
 */
export const acceptMessage = groupCommitEach(writeBatch, { alone });

async function writeBatch(database: Database, batch: readonly Accepted[]): Promise<(boolean | Error)[]> {
  const test = batch.filter((a) => a.message.sender.mode !== "live");
  const byWorkspace = new Map<string, Map<string, Accepted[]>>();
  for (const a of batch) {
    if (a.message.sender.mode !== "live") continue;
    const groups = byWorkspace.get(a.message.sender.workspaceId) ?? new Map<string, Accepted[]>();
    byWorkspace.set(a.message.sender.workspaceId, groups);
    const key = `${a.message.channel} ${usagePeriod(a.at).day}`;
    const group = groups.get(key);
    if (group) group.push(a);
    else groups.set(key, [a]);
  }
  const outcome = new Map<Accepted, undefined | Error>();
  // Each part commits on its own: one that fails is written again message by message, or its
  // messages get the error; the others stand.
  const settle = async (part: readonly Accepted[], write: (part: readonly Accepted[]) => Promise<(undefined | Error)[]>) => {
    const results = await writeOrEach(part, write, alone).catch((err: Error) => part.map(() => err));
    part.forEach((a, i) => outcome.set(a, results[i]));
  };
  await Promise.all([
    test.length ? settle(test, async (part) => outcomes(part, await insertMessages(database.query, part))) : null,
    // Workspaces apart at once; a workspace's groups in their order of arrival (its monthly
    // limit counts every channel), each statement locking only that workspace's row.
    ...[...byWorkspace.values()].map(async (groups) => {
      for (const group of groups.values()) await settle(group, (part) => insertCounted(database.query, part));
    }),
  ]);
  const results = batch.map((a) => outcome.get(a));
  if (test.some((a) => outcome.get(a) === undefined)) wakePipeline();
  // A message written is written with its stored response, if it came with one.
  return results.map((err, i) => err ?? batch[i]!.response !== undefined);
}

/** A live message's row as its dispatch reads it, handed over with its job. */
function dispatchRow(id: string, m: NewMessage, at: Date): DispatchRow {
  const { workspaceId, mode } = m.sender;
  return {
    id,
    workspace_id: workspaceId,
    mode,
    channel: m.channel,
    contact_id: m.contactId,
    to: m.address,
    status: "queued",
    content: m.content,
    metadata: m.metadata ?? {},
    created_at: at,
    scheduled_at: m.sendAt ?? null,
    flow_id: m.flowId ?? null,
  };
}

/** Each message's outcome: written, or left out because its claim was taken over (D28). */
function outcomes(batch: readonly Accepted[], kept: Set<string>): (undefined | Error)[] {
  return batch.map((a) => (kept.has(a.id) ? undefined : keyInUse()));
}
