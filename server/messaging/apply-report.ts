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
import type { Handoff } from "../outbox/handoff.ts";
import type { StoredJob } from "../outbox/jobs.ts";
import { addCounters, countMessageMoves } from "../flows/stat-counters.ts";
import { usagePeriod } from "../usage/quota.ts";
import { addReputation, checkGuard, reputationDay } from "../channels/reputation.ts";
import { channelOf } from "../channels/registry.ts";
import { rowsPerWorkspace } from "../lib/per-workspace.ts";

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
  /** D89: the WhatsApp pricing the report carried; the message keeps the latest. */
  pricing?: Pricing;
};

/** D89: a WhatsApp message's pricing, `category` and `type` as Meta names them. */
export type Pricing = { category: string; type: string };

/** D89: the usage and flow counter a pricing counts in: `<category>:charged`, or `<category>:free` when `type` is not `regular`. */
export const pricingKey = (p: Pricing) => `${p.category}:${p.type === "regular" ? "charged" : "free"}`;

const TIMESTAMP: Record<Exclude<Status, "queued">, "sent_at" | "delivered_at" | "read_at" | "failed_at" | "canceled_at"> = {
  sent: "sent_at",
  delivered: "delivered_at",
  read: "read_at",
  failed: "failed_at",
  canceled: "canceled_at",
};

type Row = MessageEventSource & {
  workspace_id: string;
  channel_id: string | null;
  mode: Mode;
  status: Status;
  to: string | null;
  pricing: Pricing | null;
  created_at: Date;
};

/**
 * One report for `applyReports`: the message, its workspace when the caller knows it, the
 * report, and the cause its events carry (the current one unless given, D54).
 */
export type ReportFor = { messageId: string; workspaceId?: string; report: Report; cause?: [string | null, string | null] };

// D87: the workspaces of messages known by id alone (a provider's report names only the
// message), read without a lock; every lock and write below names one workspace. In id order:
// so the plan reads the index on id even when made on an empty table (plan-growth.test.ts).
const WORKSPACES = `SELECT id, workspace_id FROM messages WHERE id = ANY($1::text[]) ORDER BY id`;
// The messages are locked in (workspace, id) order, so two batches over the same messages never deadlock.
const LOCK = `SELECT id, workspace_id, channel_id, mode::text AS mode, channel::text AS channel, contact_id, status::text AS status, metadata, "to", pricing, created_at
  FROM messages WHERE workspace_id = $1 AND id = ANY($2::text[]) ORDER BY id FOR UPDATE`;

// Every report's history entry, the status changes and their events (with their webhook
// deliveries) in one statement. Only a failed message keeps an error: any other status clears
// the one a provider call with no answer left on the queued message (D47: its outcome is now
// known). A state reached sets its timestamp, floored so that a provider's time (whole seconds for
// WhatsApp) never puts a state before the previous one; the right-hand sides read the row as
// it was before this update (D87: the new status arrives typed, `status`, and as text,
// `to_status`: Citus refuses a cast, a stable function, in an UPDATE). A message a flow's step sent moves its count in the step's
// statistics from its old status to its new one (D69). A report whose pricing differs from the
// message's changes it even when the status stays (D89), and moves the message's count by
// pricing from the old key to the new one: in the live usage counter of the day it was
// accepted (one row per day, merged key by key) and at its step in its flow's statistics.
const FLOOR = "greatest(c.at, m.created_at, coalesce(m.sent_at, m.created_at), coalesce(m.delivered_at, m.created_at))";
const CHANGE = `
  WITH h AS (
    ${insertHistory(`SELECT h.workspace_id, h.message_id, h.at, h.kind, h.status::"MessageStatus", h.detail
    FROM jsonb_to_recordset($1::jsonb) AS h(workspace_id text, message_id text, at timestamptz, kind text, status text, detail jsonb)`)}
  ),
  u AS (
    UPDATE messages m SET status = CASE WHEN c.moved THEN c.status ELSE m.status END,
      ${Object.values(TIMESTAMP)
        .map((column) => `${column} = CASE WHEN '${column}' = ANY(c.reached) THEN coalesce(m.${column}, ${FLOOR}) ELSE m.${column} END`)
        .join(",\n      ")},
      provider_message_id = coalesce(c.provider_message_id, m.provider_message_id),
      error = CASE WHEN NOT c.moved THEN m.error WHEN c.status = 'failed' THEN coalesce(c.error, m.error) END,
      error_code = CASE WHEN NOT c.moved THEN m.error_code WHEN c.status = 'failed' THEN coalesce(c.error_code, m.error_code) END,
      pricing = coalesce(c.pricing, m.pricing)
    FROM jsonb_to_recordset($2::jsonb)
      AS c(workspace_id text, id text, at timestamptz, status "MessageStatus", to_status text, reached text[], error text, provider_message_id text,
        error_code text, from_status text, moved boolean, pricing jsonb)
    WHERE m.workspace_id = $10 AND m.id = ANY($5::text[]) AND m.workspace_id = c.workspace_id AND m.id = c.id
    RETURNING m.workspace_id, m.id, c.from_status, c.to_status
  ),
  fs AS (${countMessageMoves("u")}),
  p AS (
    SELECT p.workspace_id, p.id, p.mode, p.day, k.key, k.n
    FROM jsonb_to_recordset($8::jsonb) AS p(workspace_id text, id text, mode text, day text, from_key text, to_key text)
    CROSS JOIN LATERAL (VALUES (p.to_key, 1), (p.from_key, -1)) AS k(key, n)
    WHERE k.key IS NOT NULL
  ),
  pu AS (
    INSERT INTO usage_counters AS uc (workspace_id, day, channel, mode, count, whatsapp_pricing)
    SELECT d.workspace_id, d.day, 'whatsapp', 'live', 0, jsonb_object_agg(d.key, d.n)
    FROM (SELECT workspace_id, day, key, sum(n)::int AS n FROM p WHERE mode = 'live' GROUP BY 1, 2, 3 HAVING sum(n) <> 0) d
    GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (workspace_id, day, channel, mode) DO UPDATE SET whatsapp_pricing = (
      SELECT coalesce(jsonb_object_agg(a.key, a.n), '{}'::jsonb)
      FROM (SELECT e.key, sum(e.value::int) AS n
        FROM (SELECT * FROM jsonb_each_text(uc.whatsapp_pricing) UNION ALL SELECT * FROM jsonb_each_text(EXCLUDED.whatsapp_pricing)) e
        GROUP BY 1 HAVING sum(e.value::int) <> 0) a)
  ),
  pf AS (${addCounters(`(
    SELECT f.workspace_id, f.flow_id, f.mode::text AS mode, f.version, f.path, 'pricing:' || p.key AS metric, p.n
    FROM p JOIN flow_step_messages f ON f.workspace_id = p.workspace_id AND f.message_id = p.id
  )`)}),
  ${insertEventsFrom(
    "e",
    `SELECT e.id, e.workspace_id, e.name, e.mode::"KeyMode", e.data, e.contact_id, e.created_at, e.request_id, e.traceparent
    FROM jsonb_to_recordset($3::jsonb)
      AS e(id text, workspace_id text, name text, mode text, data jsonb, contact_id text, created_at timestamptz, request_id text, traceparent text)`,
    { owner: "$6::text", ms: "$7::double precision" },
  )},
  rep AS (${addReputation(`SELECT r.workspace_id, r.channel_id, r.day, r.sent, r.delivered, r.complaints, r.bounces
    FROM jsonb_to_recordset($9::jsonb) AS r(workspace_id text, channel_id text, day text, sent int, delivered int, complaints int, bounces int)`)}),
  s AS (
    ${insertSuppressions(`SELECT s.id, s.workspace_id, s.mode, s.email, s.reason, s.message_id, s.detail, s.created_at
    FROM jsonb_to_recordset($4::jsonb)
      AS s(id text, workspace_id text, mode text, email text, reason text, message_id text, detail text, created_at timestamptz)`)}
  )
  SELECT coalesce((SELECT json_agg(j) FROM e_j j WHERE j.lease_owner IS NOT NULL), '[]'::json) AS handed`;

type Reputed = {
  workspace_id: string;
  channel_id: string;
  day: string;
  sent: number;
  delivered: number;
  complaints: number;
  bounces: number;
};

/**
 * D93: what a live e-mail's report adds to its channel's reputation counters of the day: `sent`
 * when it reaches the provider (a recipient refused at the SMTP stage counts as sent and
 * bounced), `delivered`, a complaint, a hard bounce (once: when it fails the message).
 */
function reputationCounts(m: Row, report: Report, path: Status[], at: Date): Reputed | null {
  if (!channelOf(m.channel).reputationGuard || m.mode !== "live" || !m.channel_id) return null;
  const hardBounce = report.suppress?.reason === "hard_bounce" && path.includes("failed");
  const counts = {
    sent: path.includes("sent") || (hardBounce && m.status === "queued") ? 1 : 0,
    delivered: path.includes("delivered") ? 1 : 0,
    complaints: report.suppress?.reason === "complaint" ? 1 : 0,
    bounces: hardBounce ? 1 : 0,
  };
  if (!counts.sent && !counts.delivered && !counts.complaints && !counts.bounces) return null;
  return { workspace_id: m.workspace_id, channel_id: m.channel_id, day: reputationDay(at), ...counts };
}

/**
 * Applies a status change or provider report to a message in the caller's transaction (D8):
 * the report always goes to the history; the status only moves forward, passing through
 * `delivered` when a `read` arrives for a `sent` message; each state reached sets its
 * timestamp and records its `mensagem.*` event, in order. Returns whether the status changed.
 */
export async function applyReport(sql: Handle, messageId: string, report: Report, workspaceId?: string): Promise<boolean> {
  const [changed] = await applyReports(sql, [{ messageId, workspaceId, report }]);
  return changed!;
}

/**
 * `applyReport` for many messages at once (each at most once), in two statements per
 * workspace on the driver whatever their number: the lock and read, then one write (D87: each
 * names its workspace). Whether each changed.
 * `handoff`: the webhook deliveries' jobs are written claimed by this process's worker, which
 * starts them once the caller's transaction has committed (`Handoff.commit`), with no claim.
 */
export async function applyReports(sql: Handle, reports: ReportFor[], handoff: Handoff | null = null): Promise<boolean[]> {
  const ids = reports.map((r) => r.messageId);
  if (new Set(ids).size !== ids.length) throw new Error("applyReports: each message at most once");
  const unplaced = reports.filter((r) => !r.workspaceId).map((r) => r.messageId);
  const placed = new Map(
    unplaced.length ? (await sql<{ id: string; workspace_id: string }>(WORKSPACES, [unplaced])).map((r) => [r.id, r.workspace_id]) : [],
  );
  const refs = reports.flatMap((r) => {
    const workspaceId = r.workspaceId ?? placed.get(r.messageId);
    return workspaceId ? [{ workspaceId, id: r.messageId }] : [];
  });
  const rows = await rowsPerWorkspace(
    refs,
    (r) => r.workspaceId,
    (ws, group) => sql<Row>(LOCK, [ws, group.map((r) => r.id)]),
  );
  const byId = new Map(rows.map((m) => [m.id, m]));
  // Events are stamped when recorded (a provider's time can be seconds behind), one
  // millisecond apart, so the log orders mensagem.entregue before mensagem.lida (D8).
  const recordedAt = Date.now();
  const history: unknown[] = [];
  const changes: ({ id: string } & Record<string, unknown>)[] = [];
  const events: unknown[] = [];
  const suppressions: unknown[] = [];
  const pricings: unknown[] = [];
  const reputation: Reputed[] = [];
  const paths = reports.map(({ messageId, report, cause }) => {
    const m = byId.get(messageId);
    if (!m) return null;
    const at = report.at ?? new Date();
    if (report.suppress && channelOf(m.channel).suppressible && m.to) {
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
    history.push({ workspace_id: m.workspace_id, message_id: messageId, at, kind: report.kind, status: report.status, detail });
    const counted = reputationCounts(m, report, path, at);
    if (counted) reputation.push(counted);
    const final = path[path.length - 1];
    const pricing = report.pricing && (report.pricing.category !== m.pricing?.category || report.pricing.type !== m.pricing?.type);
    if (pricing) {
      pricings.push({
        workspace_id: m.workspace_id,
        id: messageId,
        mode: m.mode,
        day: usagePeriod(new Date(m.created_at)).day,
        from_key: m.pricing ? pricingKey(m.pricing) : null,
        to_key: pricingKey(report.pricing!),
      });
    }
    if (!final && !pricing) return path;
    changes.push({
      workspace_id: m.workspace_id,
      id: messageId,
      at,
      status: final ?? m.status,
      to_status: final ?? m.status,
      moved: final !== undefined,
      pricing: pricing ? report.pricing : null,
      from_status: m.status,
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
    const lease = handoff?.leaseOf("webhook.deliver") ?? null;
    // D87: one statement per workspace (every report has its history entry, so `history` names them all).
    const of = (ws: string, items: unknown[]) => JSON.stringify(items.filter((i) => (i as { workspace_id: string }).workspace_id === ws));
    const handed = await rowsPerWorkspace(
      history as { workspace_id: string }[],
      (h) => h.workspace_id,
      async (ws) => {
        const mine = changes.filter((c) => c.workspace_id === ws);
        const [row] = await sql<{ handed: (StoredJob & Record<"run_at" | "created_at", string>)[] }>(CHANGE, [
          of(ws, history),
          JSON.stringify(mine),
          of(ws, events),
          of(ws, suppressions),
          mine.map((c) => c.id),
          lease?.owner ?? null,
          lease?.ms ?? null,
          of(ws, pricings),
          of(ws, reputation),
          ws,
        ]);
        return row!.handed;
      },
    );
    // D93: a complaint or hard bounce may take its channel past the guard's threshold.
    const flagged = reputation.filter((r) => r.complaints > 0 || r.bounces > 0);
    if (flagged.length)
      await checkGuard(
        sql,
        flagged.map((r) => ({ workspaceId: r.workspace_id, channelId: r.channel_id })),
      );
    handoff?.hold(handed.map((j) => ({ ...j, run_at: new Date(j.run_at), created_at: new Date(j.created_at) })));
  }
  for (const path of paths) for (const status of path ?? []) recorder()?.statusChange(status); // D52
  return paths.map((path) => (path?.length ?? 0) > 0);
}
