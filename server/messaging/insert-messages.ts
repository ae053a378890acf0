import { isConnectionError, type Database, type Handle } from "../db/client.ts";
import { completeClaims, keyInUse, type Completion, type IdempotentEffect } from "../idempotency/idempotency.ts";
import { groupCommitEach } from "../lib/group-commit.ts";
import { newId } from "../lib/ids.ts";
import { insertJobs, jobRow } from "../outbox/jobs.ts";
import { Handoff } from "../outbox/handoff.ts";
import { wakePipeline } from "../outbox/wake.ts";
import type { DispatchRow } from "./dispatch-message.ts";
import { countLiveMessage, countLiveMessages, usagePeriod } from "../usage/quota.ts";
import type { Mode } from "../keys/scopes.ts";
import type { WorkspaceRef } from "../contacts/get-contact.ts";
import { currentCause, type Cause } from "../observability/request-context.ts";
import { simulatedOutcome } from "./test-mode.ts";
import type { Content } from "./send-message.ts";

export type Sender = WorkspaceRef & { workspaceId: string; mode: Mode };

export type NewMessage = {
  sender: Sender;
  channel: "whatsapp" | "email";
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
  /** D57: the caller's correlation data; none for flow sends. */
  metadata?: Record<string, string>;
};

/**
 * A message ready to write: its id and time, the response an idempotent request stores with
 * it, and the work that accepted it (D54: its job, and so its events, carry that request on,
 * also when a batch writes the messages of several requests).
 */
export type Accepted = { id: string; message: NewMessage; at: Date; cause: Cause; response?: { effect: IdempotentEffect; body: unknown } };

const MESSAGE_COLUMNS = `id, workspace_id, mode, channel, channel_id, contact_id, "to", status, content, source, created_at, metadata, api_key_id, run_id`;

// One statement writes accepted messages, their first history entries, their outbox jobs
// (ARCHITECTURE "Shape": transactional outbox; rows built by the outbox's `jobRow`) and the
// responses idempotent requests store (D46): a message whose claim was taken over meanwhile
// is left out, with its job, and `kept` names the messages written.
const INSERT_MESSAGES = `
  WITH done AS (${completeClaims("$1")}),
  kept AS (
    SELECT * FROM json_populate_recordset(NULL::messages, $2::json) AS m
    WHERE m.id NOT IN (SELECT ref FROM json_to_recordset($1::json) AS c(ref text)) OR m.id IN (SELECT ref FROM done)
  ),
  m AS (INSERT INTO messages (${MESSAGE_COLUMNS}) SELECT ${MESSAGE_COLUMNS} FROM kept),
  h AS (
    INSERT INTO message_history (message_id, at, kind, status, detail)
    SELECT id, created_at, 'status', 'queued', jsonb_build_object('source', source) FROM kept
  ),
  j AS (${insertJobs(3, "subject_id IN (SELECT id FROM kept)")})
  SELECT id FROM kept`;

/**
 * Writes accepted messages (live ones already counted against the limits) in one statement;
 * the ids written: all, but those whose idempotent request lost its claim meanwhile.
 */
export async function insertMessages(sql: Handle, batch: readonly Accepted[], handoff: Handoff | null = null): Promise<Set<string>> {
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
    };
  });
  const jobs = batch.map(({ id, message: m, at, cause }) => {
    const target = { subjectId: id, workspaceId: m.sender.workspaceId, channelId: m.channelId, at, cause };
    if (m.sender.mode === "test") return jobRow("message.simulate", { outcome: simulatedOutcome(m.address), step: 0 }, target);
    const row = jobRow("message.dispatch", {}, target);
    return handoff ? handoff.lease(row, dispatchRow(id, m, at)) : row;
  });
  const kept = await sql<{ id: string }>(INSERT_MESSAGES, [JSON.stringify(completions), JSON.stringify(rows), JSON.stringify(jobs)]);
  return new Set(kept.map((r) => r.id));
}

/**
 * A message ready to write with others (`insertMessages`), a flow send step's: a live message
 * is first counted against the workspace's limits (D25), so call it inside the transaction
 * that will write it.
 */
export async function countedMessage(sql: Handle, message: NewMessage, at: Date = new Date()): Promise<Accepted> {
  if (message.sender.mode === "live") await countLiveMessage(sql, message.sender.workspaceId, message.channel, at);
  return { id: newId("message"), message, at, cause: currentCause() };
}

/** Writes one message with its history and its outbox job (`countedMessage`, then `insertMessages`); its id. */
export async function insertMessage(sql: Handle, message: NewMessage, at: Date = new Date()): Promise<string> {
  const accepted = await countedMessage(sql, message, at);
  await insertMessages(sql, [accepted]);
  return accepted.id;
}

/**
 * Writes an API send (`sendMessage`): concurrent sends of this process share their statements
 * and their commit (`groupCommit`). Live ones are counted against the limits in the same
 * transaction, each as if alone and in order (D25); a test batch is one statement. A batch
 * that fails as a whole (but for an unreachable database) is written again message by
 * message, so a fault stays with its message.
 */
export const acceptMessage = groupCommitEach(writeBatch, { alone: (err) => !isConnectionError(err) });

async function writeBatch(database: Database, batch: readonly Accepted[]): Promise<(undefined | Error)[]> {
  const live = batch.some((a) => a.message.sender.mode === "live");
  // Live messages' jobs go straight to this process's pipeline worker, when one runs here with room.
  const handoff = live ? Handoff.take() : null;
  const results = live
    ? await database.transaction((tx) => writeCounted(tx, batch, handoff))
    : outcomes(batch, await insertMessages(database.query, batch));
  const written = new Set(batch.filter((_, i) => results[i] === undefined).map((a) => a.id));
  batch.forEach((a) => {
    if (a.response && written.has(a.id)) a.response.effect.recorded = true;
  });
  const started = handoff?.commit((id) => written.has(id)) ?? 0;
  if (started < written.size) wakePipeline();
  return results;
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
  };
}

/** Each message's outcome: written, refused by a limit, or left out because its claim was taken over (D28). */
function outcomes(batch: readonly Accepted[], kept: Set<string>, refused = new Map<Accepted, Error>()): (undefined | Error)[] {
  return batch.map((a) => refused.get(a) ?? (kept.has(a.id) ? undefined : keyInUse()));
}

/** A batch with live messages: each channel's count (D25), then the messages that fit, in one transaction. */
async function writeCounted(tx: Handle, batch: readonly Accepted[], handoff: Handoff | null): Promise<(undefined | Error)[]> {
  const refused = new Map<Accepted, Error>();
  const groups = new Map<string, Accepted[]>();
  for (const a of batch) {
    if (a.message.sender.mode !== "live") continue;
    const group = `${a.message.sender.workspaceId} ${a.message.channel} ${usagePeriod(a.at).day}`;
    groups.set(group, [...(groups.get(group) ?? []), a]);
  }
  // Workspaces are locked in the order of their ids, so two batches (of two processes) never
  // wait for each other's locks; a workspace's groups keep their order of arrival (the monthly
  // limit counts every channel).
  const workspace = (group: Accepted[]) => group[0]!.message.sender.workspaceId;
  for (const group of [...groups.values()].sort((a, b) => (workspace(a) < workspace(b) ? -1 : workspace(a) > workspace(b) ? 1 : 0))) {
    const { sender, channel } = group[0]!.message;
    const { accepted, refusal } = await countLiveMessages(tx, sender.workspaceId, channel, group[0]!.at, group.length);
    for (const a of group.slice(accepted)) refused.set(a, refusal!);
  }
  const fit = batch.filter((a) => !refused.has(a));
  const kept = fit.length ? await insertMessages(tx, fit, handoff) : new Set<string>();
  // A counted message left out (its claim taken over) would stay counted: roll back, and each is written alone.
  if (fit.some((a) => !kept.has(a.id))) throw batch.length === 1 ? keyInUse() : new Error("a claim was taken over during a counted batch");
  return outcomes(batch, kept, refused);
}
