import { causeParams } from "../observability/request-context.ts";
import { messageEventData } from "./message-event-data.ts";
import { loadChannel } from "../providers/load-channel.ts";
import { isConnectionError, type Database, type Handle } from "../db/client.ts";
import { backoffMs } from "../outbox/backoff.ts";
import { countMessageMoves } from "../flows/stat-counters.ts";
import { completeJob, deferJobs, fenceJob, insertJobRows, jobRow, recordOutcome, rescheduleJob, type Job } from "../outbox/jobs.ts";
import { env } from "../lib/env.ts";
import type { ChannelConfig, Content, ProviderResult } from "../providers/provider.ts";
import { providerFor } from "../channels/server-registry.ts";
import { workspaceKey, workspaceRows } from "../lib/batched-rows.ts";
import { byWorkspace } from "../lib/per-workspace.ts";
import { groupCommitEach } from "../lib/group-commit.ts";
import { newId } from "../lib/ids.ts";
import { SecretsUnreadableError } from "../lib/crypto.ts";
import { recorder } from "../observability/metrics.ts";
import { inSpan } from "../observability/tracing.ts";
import { applyReport, type Report } from "./apply-report.ts";
import { reserveSlots, slowChannel } from "../channels/pacing.ts";
import { slowsChannel } from "../providers/meta-error-codes.ts";
import { channelOf } from "../channels/registry.ts";
import { channelPausedError, pauseChannel, stopsEverySend } from "../channels/channel-pause.ts";
import { addReputation, reputationDay } from "../channels/reputation.ts";
import { jsonRows } from "../db/json-rows.ts";
import { insertEventsFrom } from "../events/record-event.ts";
import { setContactFlag } from "../contacts/contact-flags.ts";
import { insertHistory } from "./message-history.ts";
import type { Columns } from "../db/rows.ts";

/** Temporary failures are retried for this long after acceptance, then the message fails (D39). */
export const RETRY_WINDOW_MS = 24 * 60 * 60_000;

/** The message's `error` when its channel's stored credentials cannot be opened. */
export const UNREADABLE_CHANNEL =
  "The channel's stored credentials cannot be opened with this server's secret (AUTH_SECRET, or the auth-secret file in DATA_DIR). " +
  "Start the service with the secret they were stored with, or connect the channel again.";

/** The message's `error_code` then: a configuration problem, not the provider's refusal. */
export const UNREADABLE_CHANNEL_CODE = "channel_credentials_unreadable";

/** The message's `error_code` when its provider call got no answer and the provider never reported on it (D47). */
export const PROVIDER_TIMEOUT_CODE = "provider_timeout";

export type DispatchResult = "sent" | "failed" | "retry" | "skipped" | "lost" | "paced" | "unknown";

/** A live message as its dispatch reads it. */
export type DispatchRow = Columns<
  "messages",
  "id" | "workspace_id" | "mode" | "channel" | "contact_id" | "to" | "status" | "created_at" | "scheduled_at"
> & {
  content: Content;
  metadata: Record<string, string> | null;
  /** The flow whose run sent it; null for API sends (D92: the e-mail's Feedback-ID). */
  flow_id: string | null;
};

/** The jobs of one claim start together, so their messages are read in one query. */
export const loadMessage = workspaceRows<DispatchRow>(
  `SELECT m.id, m.workspace_id, m.mode::text AS mode, m.channel::text AS channel, m.contact_id, m."to", m.status::text AS status, m.content,
     m.metadata, m.created_at, m.scheduled_at, r.flow_id
   FROM messages m LEFT JOIN flow_runs r ON r.workspace_id = $1 AND r.workspace_id = m.workspace_id AND r.id = m.run_id
   WHERE m.workspace_id = $1 AND m.id = ANY($2::text[])`,
);

// The common outcome, for the messages of many jobs in one statement: each job is completed
// (while its lease is held) and its still-queued message becomes `sent`, with its history entry
// and `mensagem.enviada` (with its webhook deliveries). The messages of the workspace `$2` are
// locked in id order first, like `applyReports`, so two statements over the same messages never
// deadlock (by a subquery of the update: D87, Citus misreads a locking CTE's rows beside the
// inserts that follow). A
// message that moved meanwhile (a provider report overtook this commit) is left to the general path.
// A message a flow's step sent moves its count in the step's statistics from queued to sent (D69).
// A live e-mail adds one to its channel's sent count of the day (D93: the reputation guard's counters).
const MARK_SENT = `
  WITH s AS (
    SELECT * FROM ${jsonRows(
      "$1",
      `job_id text, owner text, at timestamptz, provider_message_id text, message_id text, detail jsonb, event_id text,
       workspace_id text, mode text, data jsonb, contact_id text, request_id text, traceparent text`,
    )} AS s
  ),
  j AS (DELETE FROM jobs USING s WHERE jobs.workspace_id = $2 AND jobs.id = s.job_id AND jobs.lease_owner = s.owner RETURNING jobs.id),
  u AS (
    UPDATE messages m SET status = 'sent', sent_at = greatest(s.at, m.created_at), provider_message_id = s.provider_message_id
    FROM s WHERE m.workspace_id = $2 AND m.id = s.message_id AND m.id IN (
      SELECT l.id FROM messages l WHERE l.workspace_id = $2 AND l.status = 'queued'
        AND l.id IN (SELECT s.message_id FROM s WHERE s.job_id IN (SELECT id FROM j)) ORDER BY l.id FOR UPDATE
    )
    RETURNING m.workspace_id, m.id
  ),
  fs AS (${countMessageMoves("(SELECT workspace_id, id, 'queued' AS from_status, 'sent' AS to_status FROM u)")}),
  rep AS (${addReputation(`SELECT m.workspace_id, m.channel_id, $3::text, 1, 0, 0, 0
    FROM u JOIN messages m ON m.workspace_id = u.workspace_id AND m.id = u.id WHERE m.channel = 'email' AND m.mode = 'live'`)}),
  h AS (${insertHistory(`SELECT s.workspace_id, s.message_id, s.at, 'status', 'sent', s.detail FROM s WHERE s.message_id IN (SELECT id FROM u)`)}),
  ${insertEventsFrom(
    "e",
    `SELECT s.event_id, s.workspace_id, 'mensagem.enviada', s.mode::"KeyMode", s.data, s.contact_id, s.at, s.request_id, s.traceparent
    FROM s WHERE s.message_id IN (SELECT id FROM u)`,
  )}
  SELECT s.job_id, s.job_id IN (SELECT id FROM j) AS job, s.message_id IN (SELECT id FROM u) AS sent FROM s`;

type Sent = {
  job_id: string;
  job_workspace_id: string;
  owner: string;
  at: Date;
  provider_message_id: string | undefined;
  message_id: string;
} & Record<string, unknown>;

/**
 * Records an accepted send: the provider calls of one process that end while writes are in
 * flight are recorded together by the next (`groupCommit`), in one statement. Up to four in
 * flight: with one, a slow statement held every completion behind it (docs/architecture.md,
 * "Database").
 */
const markSent = groupCommitEach(
  async (database: Database, batch: readonly Sent[]): Promise<{ job: boolean; sent: boolean }[]> => {
    // One statement per workspace (D87: each names the workspace of the jobs it completes).
    const rows = await Promise.all(
      byWorkspace(batch, (b) => b.job_workspace_id).map((group) =>
        database.query<{ job_id: string; job: boolean; sent: boolean }>(MARK_SENT, [
          JSON.stringify(group),
          group[0]!.job_workspace_id,
          reputationDay(),
        ]),
      ),
    );
    const byJob = new Map(rows.flat().map((r) => [r.job_id, r]));
    return batch.map((b) => byJob.get(b.job_id) ?? { job: false, sent: false });
  },
  { alone: (err) => !isConnectionError(err), inFlight: 4 },
);

/**
 * Sends one live message through its channel's provider and records the answer in the same
 * transaction that completes the job. A message that is no longer `queued` (another worker
 * sent it) is not sent again, and the call is made only once the fence (`fenceJob`) proved
 * this claim still holds the job and extended its lease past the provider's timeout (D47):
 * "lost" when another claim took it meanwhile. The one window for a duplicate provider call:
 * the provider accepted, and this process died, or lost its database for longer than the
 * lease, before that transaction committed (docs/pipeline.md).
 */
export async function dispatchMessage(
  database: Database,
  job: Job<"message.dispatch">,
  owner: string,
  channels: (id: string) => Promise<ChannelConfig | null> = (id) => loadChannel(database, id),
  callBy?: number,
  /** Called once the provider call is over (answered or failed), before it is recorded: the channel's slot is free. */
  callEnded: () => void = () => {},
): Promise<DispatchResult> {
  // The message (handed over with the job by the process that accepted it, or read) and its
  // channel (shared by the claim's jobs) are read at the same time.
  const [m, opened] = await Promise.all([
    (job.subject as DispatchRow | undefined) ?? loadMessage(database, workspaceKey({ workspace_id: job.workspace_id, id: job.subject_id })),
    (job.channel_id ? channels(job.channel_id) : Promise.resolve(null)).then(
      (channel) => ({ channel }),
      (err: unknown) => ({ err }),
    ),
  ]);
  if (!m || m.status !== "queued") {
    await completeJob(database.query, job, owner);
    return "skipped";
  }
  let channel: ChannelConfig | null;
  if ("channel" in opened) channel = opened.channel;
  else {
    const err = opened.err;
    if (!(err instanceof SecretsUnreadableError)) throw err;
    // D53: a configuration problem fails the message visibly (never a silent queue) and says
    // how to fix it; retrying could not help until the operator acts.
    await finish(database, job, owner, { status: "failed", error: UNREADABLE_CHANNEL, errorCode: UNREADABLE_CHANNEL_CODE });
    return "failed";
  }
  if (!channel || !m.to) {
    await finish(database, job, owner, {
      status: "failed",
      error: "The channel was disconnected before the message could be sent.",
      errorCode: "channel_disconnected",
    });
    return "failed";
  }
  if (stopsEverySend(channel.pausedReason)) {
    // D90: WhatsApp stopped the channel (payment, policy): a message queued before the pause
    // fails without another call, which would only be refused again.
    const paused = channelPausedError(channel, channel.pausedReason!);
    await finish(database, job, owner, { status: "failed", error: paused.message, errorCode: paused.code });
    return "failed";
  }
  const provider = providerFor(channel.type);
  if (!(await fenceJob(database, job, owner, provider.timeoutMs))) return "lost";
  // D45: the channel's pacing granted this call for its current second (and the next, late in
  // a second). Not started in time (it waited for one of its channel's slots in the worker, or
  // on a busy process), it could land after them, over the cap of a second that granted it
  // nothing: it books the second it is in instead, or, that one full, goes back to the next.
  if (callBy !== undefined && Date.now() >= callBy) {
    const again = await reserveSlots(database, job.workspace_id, channel.id, 1);
    if (again.granted === 0) {
      await deferJobs(database.query, [job], owner, again.nextSecondAt);
      return "paced";
    }
  }
  const started = Date.now();
  // D54: the provider call's span; its traceparent goes out on the provider's HTTP request.
  const attributes = { "svc.channel": channel.type, "svc.channel_id": channel.id, "svc.message": m.id };
  const result = await inSpan(`provider ${channel.type} send`, { kind: "client", attributes }, async (span) => {
    const answer = await provider
      .send(channel, {
        id: m.id,
        workspaceId: m.workspace_id,
        contactId: m.contact_id,
        to: m.to!,
        content: m.content,
        flowId: m.flow_id,
      })
      .finally(callEnded);
    span.set({ "svc.provider.outcome": answer.outcome });
    if (answer.outcome !== "accepted") span.fail(answer.error);
    return answer;
  });
  recorder()?.providerCall(channel.type, result.outcome); // D52
  const detail = { ...result.detail, duration_ms: result.detail.duration_ms ?? Date.now() - started, channel_id: channel.id };
  return recordOutcome(() => record(database, job, owner, m, result, detail));
}

/** The provider's answer, recorded while the claim holds the job. */
async function record(
  database: Database,
  job: Job,
  owner: string,
  m: DispatchRow,
  result: ProviderResult,
  detail: Record<string, unknown>,
): Promise<DispatchResult> {
  if (result.outcome === "accepted") {
    const now = new Date();
    const [requestId, traceparent] = causeParams();
    const done = await markSent(database, {
      job_id: job.id,
      job_workspace_id: job.workspace_id,
      owner,
      at: now,
      provider_message_id: result.providerMessageId,
      message_id: m.id,
      detail: { ...detail, applied: true },
      event_id: newId("event"),
      workspace_id: m.workspace_id,
      mode: m.mode,
      data: messageEventData(m, "sent"),
      contact_id: m.contact_id,
      request_id: requestId,
      traceparent,
    });
    if (done?.sent) recorder()?.statusChange("sent");
    if (done?.job && !done.sent) {
      await database.transaction((sql) =>
        applyReport(sql, m.id, { status: "sent", providerMessageId: result.providerMessageId, detail, kind: "status" }, m.workspace_id),
      );
    }
    return "sent";
  }
  if (result.outcome === "unknown") {
    await awaitReport(database, job, owner, m, result.error, detail);
    return "unknown";
  }
  // A scheduled message's retries count from its `send_at` (D76), not from its acceptance.
  if (result.outcome === "permanent" || Date.now() - (m.scheduled_at ?? m.created_at).getTime() > RETRY_WINDOW_MS) {
    await finish(
      database,
      job,
      owner,
      {
        status: "failed",
        error: result.error,
        detail,
        ...(result.errorCode ? { errorCode: result.errorCode } : {}),
        ...(result.outcome === "permanent" && result.addressRejected
          ? { suppress: { reason: "hard_bounce" as const, detail: result.error } }
          : {}),
      },
      refusalEffects(m, result, job.channel_id),
    );
    return "failed";
  }
  // D45: Meta's throughput and pair limits (130429, 131056) slow the whole channel down.
  if (result.errorCode && slowsChannel(Number(result.errorCode)) && job.channel_id)
    await slowChannel(database, job.workspace_id, job.channel_id);
  const wait = Math.max(result.retryAfterMs ?? 0, backoffMs(job.attempts));
  await database.transaction(async (sql) => {
    if (!(await rescheduleJob(sql, job, owner, new Date(Date.now() + wait), { error: result.error }))) return;
    await sql(insertHistory(`VALUES ($3, $1, now(), 'retry', NULL, $2::jsonb)`), [
      m.id,
      JSON.stringify({ ...detail, error: result.error, retry_in_ms: wait }),
      m.workspace_id,
    ]);
  });
  return "retry";
}

/**
 * D47: the provider call went out and no answer came, so the provider may have taken the
 * message; calling again could send it twice. The message stays `queued` and says so (its
 * `error` and `error_code` `provider_timeout`, and its history), and the dispatch job gives way to a `message.settle` job due once the provider has had
 * `PROVIDER_SETTLE_SECONDS` to report: its report (found by our message id, which a WhatsApp
 * send carries as `biz_opaque_callback_data`) moves the message meanwhile, or it then fails as
 * `provider_timeout`.
 */
async function awaitReport(
  database: Database,
  job: Job,
  owner: string,
  m: DispatchRow,
  error: string,
  detail: Record<string, unknown>,
): Promise<void> {
  const settle = jobRow(
    "message.settle",
    { error },
    { subjectId: m.id, workspaceId: m.workspace_id, runAt: new Date(Date.now() + env().providerSettleMs) },
  );
  await database.transaction(async (sql) => {
    if (!(await completeJob(sql, job, owner))) return;
    await sql(
      `WITH h AS (${insertHistory(`VALUES ($4, $1, now(), 'outcome_unknown', NULL, $3::jsonb)`)})
       UPDATE messages SET error = $2, error_code = '${PROVIDER_TIMEOUT_CODE}' WHERE workspace_id = $4 AND id = $1 AND status = 'queued'`,
      [
        m.id,
        error,
        JSON.stringify({ ...detail, error, error_code: PROVIDER_TIMEOUT_CODE, settle_in_ms: env().providerSettleMs }),
        m.workspace_id,
      ],
    );
    await insertJobRows(sql, [settle]);
  });
}

/**
 * A `message.settle` job (D47): a message still `queued` when its provider call's report was
 * due fails as `provider_timeout`; one the provider reported on meanwhile keeps its status.
 */
export async function settleMessage(database: Database, job: Job<"message.settle">, owner: string): Promise<"failed" | "settled" | "lost"> {
  return database.transaction(async (sql) => {
    if (!(await completeJob(sql, job, owner))) return "lost";
    const [row] = await sql<Columns<"messages", "status">>(
      `SELECT status::text AS status FROM messages WHERE workspace_id = $2 AND id = $1 FOR UPDATE`,
      [job.subject_id, job.workspace_id],
    );
    if (row?.status !== "queued") return "settled";
    await applyReport(
      sql,
      job.subject_id,
      {
        status: "failed",
        error: `${job.payload.error} The provider has not reported on it since, so it counts as failed; it may still have reached the recipient.`,
        errorCode: PROVIDER_TIMEOUT_CODE,
        kind: "status",
      },
      job.workspace_id,
    );
    return "failed";
  });
}

/**
 * D90, D96: what a provider's final refusal changes beside the message (its channel's module
 * says), in the transaction that fails it: the channel paused, or a flag of the contact set
 * (WhatsApp's marketing opt-out, 131050; the sms opt-out, Twilio's 21610).
 */
function refusalEffects(m: DispatchRow, result: ProviderResult, channelId: string | null) {
  const effect = "errorCode" in result && result.errorCode ? channelOf(m.channel).refusal?.(result.errorCode) : undefined;
  if (!effect) return undefined;
  if ("pause" in effect)
    return channelId ? (sql: Handle) => pauseChannel(sql, m.workspace_id, channelId, effect.pause).then(() => {}) : undefined;
  if (!m.contact_id) return undefined;
  const ref = { workspaceId: m.workspace_id, id: m.contact_id };
  return (sql: Handle) => setContactFlag(sql, ref, effect.flag, m.mode).then(() => {});
}

async function finish(
  database: Database,
  job: Job,
  owner: string,
  report: Pick<Report, "error" | "errorCode" | "providerMessageId" | "detail" | "suppress"> & { status: "sent" | "failed" },
  also?: (sql: Handle) => Promise<void>,
): Promise<void> {
  await database.transaction(async (sql) => {
    if (!(await completeJob(sql, job, owner))) return;
    await applyReport(sql, job.subject_id, { ...report, kind: "status" }, job.workspace_id);
    await also?.(sql);
  });
}
