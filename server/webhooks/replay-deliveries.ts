import type { Database } from "../db/client.ts";
import { conflict, invalid, notFound } from "../lib/errors.ts";
import { insertJobRows, jobRow } from "../outbox/jobs.ts";
import { wakePipeline } from "../outbox/wake.ts";
import { ZDeliveryId, ZReplayRangeRequest } from "./webhook-schemas.ts";
import type { z } from "zod";
import type { Columns } from "../db/rows.ts";

// Replays from the dashboard (D33): a delivery is sent again with the same event id and body,
// with a fresh retry schedule. Its earlier attempts stay in the log.

// A delivery that succeeded keeps that attempt on its row: it moves to the log's rows, so the
// next success has the row to itself and the log keeps both.
const REPLAY = `
  WITH old AS (
    SELECT d.id, d.succeeded_at, d.last_status_code, d.succeeded_duration_ms, d.succeeded_excerpt
    FROM webhook_deliveries d JOIN webhook_endpoints ep ON ep.workspace_id = d.workspace_id AND ep.id = d.endpoint_id
    WHERE ep.enabled AND d.workspace_id = $1 AND d.status <> 'pending' AND %WHERE%
    FOR UPDATE OF d
  ),
  a AS (
    INSERT INTO webhook_attempts (workspace_id, delivery_id, at, status_code, duration_ms, response_excerpt)
    SELECT $1, id, succeeded_at, last_status_code, succeeded_duration_ms, succeeded_excerpt FROM old WHERE succeeded_at IS NOT NULL
  )
  UPDATE webhook_deliveries d SET status = 'pending', next_attempt_at = now(), updated_at = now(),
    succeeded_at = NULL, succeeded_duration_ms = NULL, succeeded_excerpt = NULL
  FROM old WHERE d.workspace_id = $1 AND d.id = old.id
  RETURNING d.id, d.endpoint_id`;

/** Puts the matching deliveries back to pending and enqueues a job for each, in one transaction; how many. */
async function replay(database: Database, workspaceId: string, where: string, params: unknown[]): Promise<number> {
  const replayed = await database.transaction(async (sql) => {
    const rows = await sql<Columns<"webhook_deliveries", "id" | "endpoint_id">>(REPLAY.replace("%WHERE%", where), [workspaceId, ...params]);
    const jobs = rows.map((d) => jobRow("webhook.deliver", { endpoint_id: d.endpoint_id }, { subjectId: d.id, workspaceId }));
    await insertJobRows(sql, jobs);
    return jobs.length;
  });
  if (replayed > 0) wakePipeline();
  return replayed;
}

/** One delivery, whatever its outcome, unless it is still pending (it will be attempted anyway). */
export async function replayDelivery(database: Database, workspaceId: string, request: z.input<typeof ZDeliveryId>) {
  const { delivery_id } = ZDeliveryId.parse(request);
  if ((await replay(database, workspaceId, "d.id = $2", [delivery_id])) === 0) {
    const d = await database.prisma.webhookDelivery.findFirst({
      where: { id: delivery_id, workspaceId },
      select: { status: true, endpoint: { select: { enabled: true } } },
    });
    if (!d) throw notFound("webhook delivery", "delivery_id");
    if (!d.endpoint.enabled)
      throw conflict("endpoint_disabled", "The endpoint is disabled; enable it to replay its deliveries.", "delivery_id");
    throw conflict("delivery_pending", "This delivery is still pending: it will be attempted again on its own.", "delivery_id");
  }
  return { replayed: 1 };
}

/** Every failed delivery of an endpoint created in [from, to). */
export async function replayFailed(database: Database, workspaceId: string, request: z.input<typeof ZReplayRangeRequest>) {
  const input = ZReplayRangeRequest.parse(request);
  const from = new Date(input.from);
  const to = new Date(input.to);
  if (to <= from) throw invalid("parameter_invalid", "to: must be later than from.", "to");
  const endpoint = await database.prisma.webhookEndpoint.findFirst({
    where: { id: input.endpoint_id, workspaceId },
    select: { id: true, enabled: true },
  });
  if (!endpoint) throw notFound("webhook endpoint", "endpoint_id");
  if (!endpoint.enabled)
    throw conflict("endpoint_disabled", "The endpoint is disabled; enable it to replay its deliveries.", "endpoint_id");
  const replayed = await replay(
    database,
    workspaceId,
    // `last_error` is set on every failed delivery: it names the partial index that holds them.
    "d.endpoint_id = $2 AND d.status = 'failed' AND d.last_error IS NOT NULL AND d.created_at >= $3 AND d.created_at < $4",
    [endpoint.id, from, to],
  );
  return { replayed };
}
