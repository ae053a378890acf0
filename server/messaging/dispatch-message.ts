import { causeParams } from "../observability/request-context.ts";
import { messageEventData } from "./message-event-data.ts";
import { loadChannel } from "../channels/load-channel.ts";
import type { Database } from "../db/client.ts";
import { backoffMs } from "../outbox/backoff.ts";
import { completeJob, fenceJob, recordOutcome, rescheduleJob, type Job } from "../outbox/jobs.ts";
import type { ChannelConfig, ProviderResult } from "../providers/provider.ts";
import { providerFor } from "../providers/registry.ts";
import { batchedRows } from "../lib/batched-rows.ts";
import { newId } from "../lib/ids.ts";
import { SecretsUnreadableError } from "../lib/crypto.ts";
import { recorder } from "../observability/metrics.ts";
import { inSpan } from "../observability/tracing.ts";
import { applyReport } from "./apply-report.ts";
import { slowChannel } from "../channels/pacing.ts";
import { slowsChannel } from "../whatsapp/meta-error-codes.ts";
import type { Content } from "./send-message.ts";

/** Temporary failures are retried for this long after acceptance, then the message fails (D39). */
export const RETRY_WINDOW_MS = 24 * 60 * 60_000;

/** The message's `error` when its channel's stored credentials cannot be opened. */
export const UNREADABLE_CHANNEL =
  "The channel's stored credentials cannot be opened with this server's secret (AUTH_SECRET, or the auth-secret file in DATA_DIR). " +
  "Start the service with the secret they were stored with, or connect the channel again.";

/** The message's `error_code` then: a configuration problem, not the provider's refusal. */
export const UNREADABLE_CHANNEL_CODE = "channel_credentials_unreadable";

export type DispatchResult = "sent" | "failed" | "retry" | "skipped" | "lost";

type Row = {
  id: string;
  workspace_id: string;
  mode: "test" | "live";
  channel: "whatsapp" | "email";
  contact_id: string;
  to: string | null;
  status: string;
  content: Content;
  metadata: Record<string, string> | null;
  created_at: Date;
};

/** The jobs of one claim start together, so their messages are read in one query. */
const loadMessage = batchedRows<Row>(
  `SELECT id, workspace_id, mode::text AS mode, channel::text AS channel, contact_id, "to", status::text AS status, content, metadata, created_at
   FROM messages WHERE id = ANY($1::text[])`,
);

// The common outcome in one statement: the job is completed (while its lease is held) and the
// still-queued message becomes `sent`, with its history entry and `mensagem.enviada`. If the
// message moved meanwhile (a provider report overtook this commit), the general path runs.
const MARK_SENT = `
  WITH j AS (DELETE FROM jobs WHERE id = $1 AND lease_owner = $2 RETURNING id),
  u AS (
    UPDATE messages SET status = 'sent', sent_at = greatest($3, created_at), provider_message_id = $4
    WHERE id = $5 AND status = 'queued' AND EXISTS (SELECT 1 FROM j)
    RETURNING id
  ),
  h AS (INSERT INTO message_history (message_id, at, kind, status, detail) SELECT id, $3, 'status', 'sent', $6::jsonb FROM u),
  e AS (
    INSERT INTO events (id, workspace_id, name, mode, data, contact_id, created_at, request_id, traceparent)
    SELECT $7, $8, 'mensagem.enviada', $9::"KeyMode", $10::jsonb, $11, $3, $12, $13 FROM u
  )
  SELECT (SELECT count(*) FROM j)::int AS job, (SELECT count(*) FROM u)::int AS sent`;

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
): Promise<DispatchResult> {
  const m = await loadMessage(database, job.subject_id);
  if (!m || m.status !== "queued") {
    await completeJob(database.query, job, owner);
    return "skipped";
  }
  let channel: ChannelConfig | null;
  try {
    channel = job.channel_id ? await channels(job.channel_id) : null;
  } catch (err) {
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
  const provider = providerFor(channel.type);
  if (!(await fenceJob(database, job, owner, provider.timeoutMs))) return "lost";
  const started = Date.now();
  // D54: the provider call's span; its traceparent goes out on the provider's HTTP request.
  const attributes = { "svc.channel": channel.type, "svc.channel_id": channel.id, "svc.message": m.id };
  const result = await inSpan(`provider ${channel.type} send`, { kind: "client", attributes }, async (span) => {
    const answer = await provider.send(channel, {
      id: m.id,
      workspaceId: m.workspace_id,
      contactId: m.contact_id,
      to: m.to!,
      content: m.content,
    });
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
  m: Row,
  result: ProviderResult,
  detail: Record<string, unknown>,
): Promise<DispatchResult> {
  if (result.outcome === "accepted") {
    const now = new Date();
    const event = messageEventData(m, "sent");
    const [done] = await database.query<{ job: number; sent: number }>(MARK_SENT, [
      job.id,
      owner,
      now,
      result.providerMessageId,
      m.id,
      JSON.stringify({ ...detail, applied: true }),
      newId("event"),
      m.workspace_id,
      m.mode,
      JSON.stringify(event),
      m.contact_id,
      ...causeParams(),
    ]);
    if (done?.sent) recorder()?.statusChange("sent");
    if (done?.job && !done.sent) {
      await database.transaction((sql) =>
        applyReport(sql, m.id, { status: "sent", providerMessageId: result.providerMessageId, detail, kind: "status" }),
      );
    }
    return "sent";
  }
  if (result.outcome === "permanent" || Date.now() - m.created_at.getTime() > RETRY_WINDOW_MS) {
    await finish(database, job, owner, {
      status: "failed",
      error: result.error,
      detail,
      ...(result.errorCode ? { errorCode: result.errorCode } : {}),
    });
    return "failed";
  }
  // D45: Meta's throughput and pair limits (130429, 131056) slow the whole channel down.
  if (result.errorCode && slowsChannel(Number(result.errorCode)) && job.channel_id) await slowChannel(database, job.channel_id);
  const wait = Math.max(result.retryAfterMs ?? 0, backoffMs(job.attempts));
  await database.transaction(async (sql) => {
    if (!(await rescheduleJob(sql, job, owner, new Date(Date.now() + wait), { error: result.error }))) return;
    await sql(`INSERT INTO message_history (message_id, kind, detail) VALUES ($1, 'retry', $2::jsonb)`, [
      m.id,
      JSON.stringify({ ...detail, error: result.error, retry_in_ms: wait }),
    ]);
  });
  return "retry";
}

async function finish(
  database: Database,
  job: Job,
  owner: string,
  report: { status: "sent" | "failed"; error?: string; errorCode?: string; providerMessageId?: string; detail?: Record<string, unknown> },
): Promise<void> {
  await database.transaction(async (sql) => {
    if (await completeJob(sql, job, owner)) await applyReport(sql, job.subject_id, { ...report, kind: "status" });
  });
}
