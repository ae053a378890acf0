import { causeParams } from "../observability/request-context.ts";
import { messageEventData, type MessageEventSource } from "./message-event-data.ts";
import type { Handle } from "../db/client.ts";
import { recorder } from "../observability/metrics.ts";
import type { Mode } from "../keys/scopes.ts";
import { newId } from "../lib/ids.ts";
import { EVENT_OF, transitionPath, type Status } from "./transitions.ts";
import { insertEventsFrom } from "../events/record-event.ts";
import { insertHistory } from "./message-history.ts";
import { insertSuppressions } from "../suppressions/insert-suppressions.ts";

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
  /**
   * D72, D73: the message's address goes on its workspace's suppression list (of the message's
   * mode) with this reason, in the same statement; an address already there keeps its entry.
   */
  suppress?: { reason: "hard_bounce" | "complaint"; detail?: string };
};

const TIMESTAMP: Record<Exclude<Status, "queued">, "sent_at" | "delivered_at" | "read_at" | "failed_at" | "canceled_at"> = {
  sent: "sent_at",
  delivered: "delivered_at",
  read: "read_at",
  failed: "failed_at",
  canceled: "canceled_at",
};

type Row = MessageEventSource & { workspace_id: string; mode: Mode; status: Status; to: string | null };

/** One report for `applyReports`: the message, the report, and the cause its events carry (the current one unless given, D54). */
export type ReportFor = { messageId: string; report: Report; cause?: [string | null, string | null] };

// The messages are locked in id order, so two batches over the same messages never deadlock.
const LOCK = `SELECT id, workspace_id, mode::text AS mode, channel::text AS channel, contact_id, status::text AS status, metadata, "to" FROM messages WHERE id = ANY($1::text[]) ORDER BY id FOR UPDATE`;

// Every report's history entry, the status changes and their events (with their webhook
// deliveries) in one statement. Only a failed message keeps an error: any other status clears
// the one a provider call with no answer left on the queued message (D47: its outcome is now
// known). A state reached sets its timestamp, floored so that a provider's time (whole seconds for
// WhatsApp) never puts a state before the previous one; the right-hand sides read the row as
// it was before this update.
const FLOOR = "greatest(c.at, m.created_at, coalesce(m.sent_at, m.created_at), coalesce(m.delivered_at, m.created_at))";
const CHANGE = `
  WITH h AS (
    ${insertHistory(`SELECT h.message_id, h.at, h.kind, h.status::"MessageStatus", h.detail
    FROM jsonb_to_recordset($1::jsonb) AS h(message_id text, at timestamptz, kind text, status text, detail jsonb)`)}
  ),
  u AS (
    UPDATE messages m SET status = c.status::"MessageStatus",
      ${Object.values(TIMESTAMP)
        .map((column) => `${column} = CASE WHEN '${column}' = ANY(c.reached) THEN coalesce(m.${column}, ${FLOOR}) ELSE m.${column} END`)
        .join(",\n      ")},
      provider_message_id = coalesce(c.provider_message_id, m.provider_message_id),
      error = CASE WHEN c.status = 'failed' THEN coalesce(c.error, m.error) END,
      error_code = CASE WHEN c.status = 'failed' THEN coalesce(c.error_code, m.error_code) END
    FROM jsonb_to_recordset($2::jsonb)
      AS c(id text, at timestamptz, status text, reached text[], error text, provider_message_id text, error_code text)
    WHERE m.id = ANY($5::text[]) AND m.id = c.id
  ),
  ${insertEventsFrom(
    "e",
    `SELECT e.id, e.workspace_id, e.name, e.mode::"KeyMode", e.data, e.contact_id, e.created_at, e.request_id, e.traceparent
    FROM jsonb_to_recordset($3::jsonb)
      AS e(id text, workspace_id text, name text, mode text, data jsonb, contact_id text, created_at timestamptz, request_id text, traceparent text)`,
  )},
  s AS (
    ${insertSuppressions(`SELECT s.id, s.workspace_id, s.mode, s.email, s.reason, s.message_id, s.detail, s.created_at
    FROM jsonb_to_recordset($4::jsonb)
      AS s(id text, workspace_id text, mode text, email text, reason text, message_id text, detail text, created_at timestamptz)`)}
  )
  SELECT count(*) FROM e`;

/**
 * Applies a status change or provider report to a message in the caller's transaction (D8):
 * the report always goes to the history; the status only moves forward, passing through
 * `delivered` when a `read` arrives for a `sent` message; each state reached sets its
 * timestamp and records its `mensagem.*` event, in order. Returns whether the status changed.
 */
export async function applyReport(sql: Handle, messageId: string, report: Report): Promise<boolean> {
  const [changed] = await applyReports(sql, [{ messageId, report }]);
  return changed!;
}

/**
 * `applyReport` for many messages at once (each at most once), in two statements on the
 * driver whatever their number: the lock and read, then one write. Whether each changed.
 */
export async function applyReports(sql: Handle, reports: ReportFor[]): Promise<boolean[]> {
  const ids = reports.map((r) => r.messageId);
  if (new Set(ids).size !== ids.length) throw new Error("applyReports: each message at most once");
  const rows = await sql<Row>(LOCK, [ids]);
  const byId = new Map(rows.map((m) => [m.id, m]));
  // Events are stamped when recorded (a provider's time can be seconds behind), one
  // millisecond apart, so the log orders mensagem.entregue before mensagem.lida (D8).
  const recordedAt = Date.now();
  const history: unknown[] = [];
  const changes: ({ id: string } & Record<string, unknown>)[] = [];
  const events: unknown[] = [];
  const suppressions: unknown[] = [];
  const paths = reports.map(({ messageId, report, cause }) => {
    const m = byId.get(messageId);
    if (!m) return null;
    const at = report.at ?? new Date();
    if (report.suppress && m.channel === "email" && m.to) {
      suppressions.push({
        id: newId("suppression"),
        workspace_id: m.workspace_id,
        mode: m.mode,
        email: m.to,
        reason: report.suppress.reason,
        message_id: m.id,
        detail: report.suppress.detail?.slice(0, 1000) ?? null,
        created_at: at,
      });
    }
    const path = transitionPath(m.status, report.status);
    const detail = { ...(report.detail ?? {}), ...(report.error ? { error: report.error } : {}), applied: path.length > 0 };
    history.push({ message_id: messageId, at, kind: report.kind, status: report.status, detail });
    const final = path[path.length - 1];
    if (!final) return path;
    changes.push({
      id: messageId,
      at,
      status: final,
      reached: path.map((s) => TIMESTAMP[s]),
      error: final === "failed" ? (report.error ?? "failed") : null,
      provider_message_id: report.providerMessageId ?? null,
      error_code: final === "failed" ? (report.errorCode ?? null) : null,
    });
    const [requestId, traceparent] = cause ?? causeParams();
    path.forEach((status, i) =>
      events.push({
        id: newId("event"),
        workspace_id: m.workspace_id,
        name: EVENT_OF[status],
        mode: m.mode,
        data: messageEventData(m, status, report.error, report.errorCode),
        contact_id: m.contact_id,
        created_at: new Date(recordedAt + i).toISOString(),
        request_id: requestId,
        traceparent,
      }),
    );
    return path;
  });
  if (history.length) {
    await sql(CHANGE, [
      JSON.stringify(history),
      JSON.stringify(changes),
      JSON.stringify(events),
      JSON.stringify(suppressions),
      changes.map((c) => c.id),
    ]);
  }
  for (const path of paths) for (const status of path ?? []) recorder()?.statusChange(status); // D52
  return paths.map((path) => (path?.length ?? 0) > 0);
}
