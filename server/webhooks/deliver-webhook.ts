import { isConnectionError, type Database } from "../db/client.ts";
import { workspaceKey, workspaceRows } from "../lib/batched-rows.ts";
import { groupCommitEach } from "../lib/group-commit.ts";
import { SecretsUnreadableError } from "../lib/crypto.ts";
import { env } from "../lib/env.ts";
import { inSpan } from "../observability/tracing.ts";
import { completeJob, fenceJob, recordOutcome, rescheduleJob, type Job } from "../outbox/jobs.ts";
import { byWorkspace } from "../lib/per-workspace.ts";
import { postJson } from "../providers/http-post.ts";
import { openSecret } from "./endpoint-secret.ts";
import { eventBody } from "./event-body.ts";
import { SIGNATURE_HEADER, signatureHeader, standardWebhooksHeaders } from "./signature.ts";
import { connectionFailure } from "./connection-failure.ts";
import { jsonRows } from "../db/json-rows.ts";
import type { Columns, Nullable } from "../db/rows.ts";

// The pipeline's handler for `webhook.deliver` jobs (D31 to D34): one signed POST of one
// event to one endpoint, its attempt recorded in the transaction that completes or
// reschedules the job.

export type DeliveryResult = "delivered" | "retry" | "failed" | "skipped" | "lost";

/**
 * Requests in flight to one endpoint from one pipeline worker (D49): a receiver is never sent
 * more than this many at once by an instance (a probe saw 82 at once to one slow endpoint),
 * and a slow or failing endpoint holds at most this many of the worker's slots (WORKER_SLOTS),
 * so other endpoints and messages always have the rest. Per worker, and so per process (the
 * inline loop is its one worker), not across instances: N instances may have N times this
 * many in flight to one endpoint (docs/webhooks.md). Those past it wait in the worker
 * (`keyedSlots`, ../outbox/keyed-slots.ts).
 */
export const MAX_IN_FLIGHT_PER_ENDPOINT = 10;
/** An endpoint with deliveries failing for this long is disabled (D33). */
export const DISABLE_AFTER_MS = 5 * 24 * 60 * 60_000;
const EXCERPT_CHARS = 1_000;
/** The delivery's error when its endpoint's stored signing secret cannot be opened. */
export const UNREADABLE_ENDPOINT =
  "The endpoint's signing secret cannot be opened with this server's secret (AUTH_SECRET, or the auth-secret file in DATA_DIR). " +
  "Start the service with the secret it was stored with, or register the endpoint again.";
/** The Request-Id of the API request that caused the delivered event. */
export const REQUEST_ID_HEADER = "x-svc-request-id";

// The delivery, with its endpoint and event (left joins: either may be gone).
type Row = Columns<"webhook_deliveries", "id" | "workspace_id" | "status" | "body" | "event_id"> &
  Nullable<Columns<"webhook_endpoints", "url" | "enabled"> & Columns<"events", "name" | "mode" | "created_at">> & {
    endpoint_id: string | null;
    secrets: string[] | null;
    data: unknown;
  };

const LOAD = `
  SELECT d.id, d.workspace_id, d.status, d.body, d.event_id, ep.id AS endpoint_id, ep.url, ep.enabled,
    (SELECT array_agg(s.secret ORDER BY s.id DESC) FROM webhook_secrets s
      WHERE s.workspace_id = $1 AND s.endpoint_id = ep.id AND (s.expires_at IS NULL OR s.expires_at > now())) AS secrets,
    ev.name, ev.mode::text AS mode, ev.data, ev.created_at
  FROM webhook_deliveries d
  LEFT JOIN webhook_endpoints ep ON ep.workspace_id = $1 AND ep.id = d.endpoint_id
  LEFT JOIN events ev ON ev.workspace_id = $1 AND ev.id = d.event_id
  WHERE d.workspace_id = $1 AND d.id = ANY($2::text[])`;

/** The jobs of one claim start together, so their deliveries are read in one query (per workspace). */
const loadDelivery = workspaceRows<Row>(LOAD);

// The common outcome, for many deliveries in one statement: each job is completed while its
// lease is held, its delivery succeeds with its attempt kept on its row (D33's log reads it
// there: no row of `webhook_attempts`, docs/deploy.md "What one message costs"), and the
// endpoint's failure streak ends. Returns the jobs completed.
const SUCCEEDED = `
  WITH s AS (
    SELECT * FROM ${jsonRows("$1", "job_id text, owner text, workspace_id text, delivery_id text, status_code int, at timestamptz, duration_ms int, excerpt text")} AS s
  ),
  j AS (DELETE FROM jobs USING s WHERE jobs.workspace_id = $2 AND jobs.id = s.job_id AND jobs.lease_owner = s.owner RETURNING jobs.id),
  d AS (
    UPDATE webhook_deliveries wd SET status = 'succeeded', attempts = wd.attempts + 1, last_status_code = s.status_code,
      last_error = NULL, next_attempt_at = NULL, updated_at = now(),
      succeeded_at = s.at, succeeded_duration_ms = s.duration_ms, succeeded_excerpt = s.excerpt
    FROM s WHERE wd.workspace_id = s.workspace_id AND wd.id = s.delivery_id AND s.job_id IN (SELECT id FROM j)
    RETURNING wd.workspace_id, wd.id, wd.endpoint_id
  ),
  e AS (
    UPDATE webhook_endpoints SET failing_since = NULL
    WHERE (workspace_id, id) IN (SELECT workspace_id, endpoint_id FROM d) AND failing_since IS NOT NULL
  )
  SELECT id AS job_id FROM j`;

type Success = {
  job_id: string;
  owner: string;
  workspace_id: string;
  delivery_id: string;
  status_code: number | null;
  at: Date;
  duration_ms: number;
  excerpt: string | null;
};

/**
 * Records a delivery that succeeded: the deliveries of a process that end while writes are
 * in flight are recorded together by the next (`groupCommit`), in one statement, up to four
 * in flight (as `markSent`).
 */
const recordSuccess = groupCommitEach(
  async (database: Database, batch: readonly Success[]): Promise<boolean[]> => {
    // One statement per workspace (D87: each names the workspace of the jobs it completes).
    const rows = await Promise.all(
      byWorkspace(batch).map((group) => database.query<{ job_id: string }>(SUCCEEDED, [JSON.stringify(group), group[0]!.workspace_id])),
    );
    const done = new Set(rows.flat().map((r) => r.job_id));
    return batch.map((b) => done.has(b.job_id));
  },
  { alone: (err) => !isConnectionError(err), inFlight: 4 },
);

/** The pipeline's handler for `webhook.deliver` jobs, started within their endpoint's slots (`keyedSlots`). */
export async function deliverWebhook(
  database: Database,
  job: Job<"webhook.deliver">,
  owner: string,
  /** Called once the endpoint's request is over (answered or failed), before it is recorded: its slot is free. */
  requestEnded: () => void = () => {},
): Promise<DeliveryResult> {
  const row = await loadDelivery(database, workspaceKey({ workspace_id: job.workspace_id, id: job.subject_id }));
  // Gone with its endpoint, or already settled (a replay raced a retry): nothing to send.
  if (!row || row.status !== "pending" || !row.endpoint_id || !row.url) {
    await completeJob(database.query, job, owner);
    return "skipped";
  }
  if (!row.enabled || !row.secrets?.length) {
    await settleFailure(database, job, owner, row, { final: true, error: "The endpoint is disabled.", attempt: null });
    return "failed";
  }
  const body =
    row.body ??
    (row.name && row.created_at
      ? eventBody({
          id: row.event_id,
          name: row.name,
          mode: row.mode!,
          workspace_id: row.workspace_id!,
          data: row.data,
          created_at: row.created_at,
        })
      : null);
  if (!body) {
    await settleFailure(database, job, owner, row, { final: true, error: "The event no longer exists.", attempt: null });
    return "failed";
  }
  let secrets: string[];
  try {
    secrets = row.secrets.map(openSecret);
  } catch (err) {
    if (!(err instanceof SecretsUnreadableError)) throw err;
    // D53: visible on the delivery, with the fix, instead of a job failing again and again.
    await settleFailure(database, job, owner, row, { final: true, error: UNREADABLE_ENDPOINT, attempt: null });
    return "failed";
  }
  // D47's fence, as for a provider call: no POST unless this claim still holds the job, whose
  // lease now outlives the request's timeout.
  if (!(await fenceJob(database, job, owner, env().webhookTimeoutMs))) return "lost";
  const at = new Date();
  let statusCode: number | null = null;
  let excerpt: string | null = null;
  let error: string | null = null;
  try {
    const url = new URL(row.url);
    const attributes = { "server.address": url.hostname, "svc.delivery": row.id, "svc.event": row.event_id };
    const answer = await inSpan(`webhook POST ${url.hostname}`, { kind: "client", attributes }, async (span) => {
      const sent = await postJson(
        url,
        {
          "user-agent": "svc-webhooks/1.0",
          [SIGNATURE_HEADER]: signatureHeader(body, secrets, at),
          ...standardWebhooksHeaders(row.event_id, body, secrets, at),
          "x-svc-event-id": row.event_id,
          "x-svc-delivery-id": row.id,
          // D54: the API request that caused the event, when one did.
          ...(job.request_id ? { [REQUEST_ID_HEADER]: job.request_id } : {}),
          ...(span.traceparent ? { traceparent: span.traceparent } : {}),
        },
        body,
        { timeoutMs: env().webhookTimeoutMs, allowPrivate: env().allowPrivateWebhooks },
      );
      span.set({ "http.response.status_code": sent.status });
      return sent;
    });
    statusCode = answer.status;
    excerpt = answer.body.slice(0, EXCERPT_CHARS);
    if (answer.status >= 300 && answer.status < 400) {
      error = `Redirects are not followed (${answer.status}${answer.headers.location ? ` to ${String(answer.headers.location)}` : ""}).`;
    } else if (answer.status < 200 || answer.status >= 300) {
      error = `The endpoint answered ${answer.status}.`;
    }
  } catch (err) {
    error = connectionFailure(err);
  } finally {
    requestEnded();
  }
  const durationMs = Date.now() - at.getTime();
  const failure = error;
  return recordOutcome(async () => {
    if (!failure) {
      await recordSuccess(database, {
        job_id: job.id,
        owner,
        workspace_id: row.workspace_id,
        delivery_id: row.id,
        status_code: statusCode,
        at,
        duration_ms: durationMs,
        excerpt,
      });
      return "delivered";
    }
    const retryInMs = retryDelayMs(job.attempts, env().webhookRetryDelaysMs);
    await settleFailure(database, job, owner, row, {
      final: retryInMs === null,
      error: failure,
      attempt: { at, statusCode, durationMs, excerpt },
      retryInMs: retryInMs ?? undefined,
    });
    return retryInMs === null ? "failed" : "retry";
  });
}

/**
 * The wait after failed attempt number `attempt` (1-based): D33's schedule with ±10 % jitter,
 * so the retries of many deliveries do not arrive together; null after the last attempt.
 */
export function retryDelayMs(attempt: number, delays: number[], random: () => number = Math.random): number | null {
  const base = delays[attempt - 1];
  return base === undefined ? null : Math.round(base * (0.9 + 0.2 * random()));
}

/**
 * A failed attempt (or a delivery that cannot be attempted): kept in the log (`webhook_attempts`); the job is
 * rescheduled or, after the last attempt, completed with the delivery `failed`. The endpoint's
 * failure streak starts at its first failed attempt; once it has lasted 5 days the endpoint
 * is disabled (D33).
 */
async function settleFailure(
  database: Database,
  job: Job,
  owner: string,
  row: Row,
  outcome: {
    final: boolean;
    error: string;
    attempt: { at: Date; statusCode: number | null; durationMs: number; excerpt: string | null } | null;
    retryInMs?: number;
  },
): Promise<void> {
  const nextAt = outcome.final ? null : new Date(Date.now() + outcome.retryInMs!);
  await database.transaction(async (sql) => {
    const held = outcome.final
      ? await completeJob(sql, job, owner)
      : await rescheduleJob(sql, job, owner, nextAt!, { error: outcome.error });
    if (!held) return;
    await sql(
      `UPDATE webhook_deliveries SET status = $2, attempts = attempts + $3, next_attempt_at = $4, last_status_code = $5,
         last_error = $6, updated_at = now() WHERE workspace_id = $7 AND id = $1`,
      [
        row.id,
        outcome.final ? "failed" : "pending",
        outcome.attempt ? 1 : 0,
        nextAt,
        outcome.attempt?.statusCode ?? null,
        outcome.error,
        row.workspace_id,
      ],
    );
    if (!outcome.attempt) return;
    const a = outcome.attempt;
    await sql(
      `INSERT INTO webhook_attempts (workspace_id, delivery_id, at, status_code, duration_ms, response_excerpt, error)
       VALUES ($7, $1, $2, $3, $4, $5, $6)`,
      [row.id, a.at, a.statusCode, a.durationMs, a.excerpt, outcome.error, row.workspace_id],
    );
    // The streak is measured to this attempt's time, given as a value: Citus (D87) refuses a
    // function that is not immutable (now(), or a timestamptz minus an interval) in an UPDATE's CASE.
    await sql(
      `UPDATE webhook_endpoints ep SET failing_since = coalesce(ep.failing_since, $2),
         enabled = ep.enabled AND NOT x.expired,
         disabled_reason = CASE WHEN ep.enabled AND x.expired THEN 'failing' ELSE ep.disabled_reason END,
         disabled_at = CASE WHEN ep.enabled AND x.expired THEN $2 ELSE ep.disabled_at END
       FROM (SELECT coalesce(failing_since, $2) <= $3 AS expired FROM webhook_endpoints WHERE workspace_id = $4 AND id = $1) x
       WHERE ep.workspace_id = $4 AND ep.id = $1`,
      [row.endpoint_id, a.at, new Date(a.at.getTime() - DISABLE_AFTER_MS), row.workspace_id],
    );
  });
}
