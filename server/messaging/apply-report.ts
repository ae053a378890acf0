import { causeParams } from "../observability/request-context.ts";
import { messageEventData, type MessageEventSource } from "./message-event-data.ts";
import type { Sql } from "../db/client.ts";
import { recorder } from "../observability/metrics.ts";
import type { Mode } from "../keys/scopes.ts";
import { newId } from "../lib/ids.ts";
import { EVENT_OF, transitionPath, type Status } from "./transitions.ts";

export type Report = {
  status: Exclude<Status, "queued">;
  at?: Date;
  error?: string;
  /** D45: the provider's error code (Meta's number as text, `smtp_<code>`) or ours. */
  errorCode?: string;
  providerMessageId?: string;
  /** `status` for the pipeline's own changes, `provider_report` for a provider's. */
  kind: "status" | "provider_report";
  detail?: Record<string, unknown>;
};

const TIMESTAMP: Record<Exclude<Status, "queued">, "sent_at" | "delivered_at" | "read_at" | "failed_at"> = {
  sent: "sent_at",
  delivered: "delivered_at",
  read: "read_at",
  failed: "failed_at",
};

type Row = MessageEventSource & { workspace_id: string; mode: Mode; status: Status };

const LOCK = `SELECT id, workspace_id, mode::text AS mode, channel::text AS channel, contact_id, status::text AS status, metadata FROM messages WHERE id = $1 FOR UPDATE`;

const HISTORY = `INSERT INTO message_history (message_id, at, kind, status, detail) VALUES ($1, $2, $3, $4::"MessageStatus", $5::jsonb)`;

// A provider's time (whole seconds for WhatsApp) never puts a state before the previous one.
const FLOOR = "greatest($2, created_at, coalesce(sent_at, created_at), coalesce(delivered_at, created_at))";

/** The history entry, the status change and its events in one statement (per path shape). */
function changeStatement(path: Exclude<Status, "queued">[]): string {
  const sets = path.map((s) => `${TIMESTAMP[s]} = coalesce(${TIMESTAMP[s]}, ${FLOOR})`).join(", ");
  return `
    WITH h AS (${HISTORY}),
    u AS (
      UPDATE messages SET status = $6::"MessageStatus", ${sets}, error = coalesce($7, error), provider_message_id = coalesce($8, provider_message_id), error_code = coalesce($10, error_code)
      WHERE id = $1
    )
    INSERT INTO events (id, workspace_id, name, mode, data, contact_id, created_at, request_id, traceparent)
    SELECT e.id, e.workspace_id, e.name, e.mode::"KeyMode", e.data, e.contact_id, e.created_at, e.request_id, e.traceparent
    FROM jsonb_to_recordset($9::jsonb)
      AS e(id text, workspace_id text, name text, mode text, data jsonb, contact_id text, created_at timestamptz, request_id text, traceparent text)`;
}

/**
 * Applies a status change or provider report to a message in the caller's transaction (D8):
 * the report always goes to the history; the status only moves forward, passing through
 * `delivered` when a `read` arrives for a `sent` message; each state reached sets its
 * timestamp and records its `mensagem.*` event, in order. Returns whether the status changed.
 * Two statements on the driver: the lock and read, then one write.
 */
export async function applyReport(sql: Sql, messageId: string, report: Report): Promise<boolean> {
  const [m] = await sql<Row>(LOCK, [messageId]);
  if (!m) return false;
  const at = report.at ?? new Date();
  const path = transitionPath(m.status, report.status);
  const detail = JSON.stringify({ ...(report.detail ?? {}), ...(report.error ? { error: report.error } : {}), applied: path.length > 0 });
  const history = [messageId, at, report.kind, report.status, detail];
  const final = path[path.length - 1];
  if (!final) {
    await sql(HISTORY, history);
    return false;
  }
  // Events are stamped when recorded (a provider's time can be seconds behind), one
  // millisecond apart, so the log orders mensagem.entregue before mensagem.lida (D8).
  const recordedAt = Date.now();
  const [requestId, traceparent] = causeParams();
  const events = path.map((status, i) => ({
    id: newId("event"),
    workspace_id: m.workspace_id,
    name: EVENT_OF[status],
    mode: m.mode,
    data: messageEventData(m, status, report.error),
    contact_id: m.contact_id,
    created_at: new Date(recordedAt + i).toISOString(),
    request_id: requestId,
    traceparent,
  }));
  await sql(changeStatement(path), [
    ...history,
    final,
    final === "failed" ? (report.error ?? "failed") : null,
    report.providerMessageId ?? null,
    JSON.stringify(events),
    final === "failed" ? (report.errorCode ?? null) : null,
  ]);
  for (const status of path) recorder()?.statusChange(status); // D52
  return true;
}
