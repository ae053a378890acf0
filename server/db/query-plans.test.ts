import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fill } from "../../bench/sections/growth.ts";
import { sql as query } from "../../bench/support.ts";
import { freshDatabase } from "../../e2e/support/database.ts";
import { listAuditEvents } from "../audit/list-audit-events.ts";
import { listContactEvents } from "../contact-events/list-contact-events.ts";
import { contactHistory } from "../contacts/search-contacts.ts";
import { contactRuns } from "../flows/contact-runs.ts";
import { getRun, listRuns } from "../flows/list-runs.ts";
import { listFlows } from "../flows/list-flows.ts";
import { getMessageOrThrow } from "../messaging/get-message.ts";
import { listMessages } from "../messaging/list-messages.ts";
import { exportMessages, messageDetail, searchMessages } from "../messaging/inspect-messages.ts";
import { workspaceOverview } from "../overview/workspace-overview.ts";
import { usageReport } from "../usage/usage-report.ts";
import { getDelivery, listDeliveries } from "../webhooks/list-deliveries.ts";
import { listEndpoints } from "../webhooks/list-endpoints.ts";
import { closeDb, db, type Database } from "./client.ts";
import { applyMigrations } from "./migrate.ts";

// Growth (docs/messages.md "Growth"): every query a dashboard page or an API endpoint runs
// against a table that grows with history is answered by an index scoped to the workspace (or
// to one of its rows), never by a sequential scan. The database holds 50 workspaces' messages,
// history and events (the benchmark's fill), webhook deliveries and flow runs, analyzed, so
// the planner chooses as it would on a large database. The service functions run for real;
// each statement they send is captured at the driver and EXPLAINed with its own parameters.

const GROWING = new Set([
  "messages",
  "message_history",
  "events",
  "webhook_deliveries",
  "webhook_attempts",
  "flow_runs",
  "flow_run_history",
  "jobs",
  "audit_events",
]);
/** A condition on one of these columns keeps a scan inside one workspace (or one row of it). */
const SCOPE = /\b(workspace_id|id|flow_id|endpoint_id|contact_id|message_id|delivery_id|run_id|event_id)\b/;

type Plan = { "Node Type": string; "Relation Name"?: string; "Index Name"?: string; "Index Cond"?: string; Plans?: Plan[] };

/** The scans of growing tables in a plan that are not an index scan with a scoping condition. */
function unscopedScans(plan: Plan, out: string[] = []): string[] {
  const relation = plan["Relation Name"];
  if (relation && GROWING.has(relation)) {
    const conds = [
      plan["Index Cond"],
      ...(plan.Plans ?? []).flatMap(function conds(p: Plan): (string | undefined)[] {
        return [p["Index Cond"], ...(p.Plans ?? []).flatMap(conds)];
      }),
    ];
    const indexed = ["Index Scan", "Index Only Scan", "Bitmap Heap Scan"].includes(plan["Node Type"]);
    if (!indexed || !conds.some((c) => c && SCOPE.test(c)))
      out.push(`${plan["Node Type"]} on ${relation} (${conds.filter(Boolean).join("; ")})`);
  }
  for (const child of plan.Plans ?? []) unscopedScans(child, out);
  return out;
}

const captured: { text: string; values: unknown[] }[] = [];
const originalQuery = pg.Client.prototype.query;

describe("page and endpoint queries on a large database (PostgreSQL)", () => {
  let database: Database;
  let drop: () => Promise<void>;
  let url: string;
  const ws = "plans-ws";

  beforeAll(async () => {
    const fresh = await freshDatabase("postgres", "plans");
    drop = fresh.drop;
    url = fresh.env.DATABASE_URL!;
    await applyMigrations({ pg: { connectionString: url } });
    const sql = (text: string, values?: unknown[]) => query(url, text, values);
    await sql(`INSERT INTO workspaces (id, name, plan) VALUES ($1, 'Plans', 'scale')`, [ws]);
    await fill({ sql, keys: { workspace: ws, testKey: "", liveKey: "" } }, 60_000);
    await sql(`
      SET session_replication_role = replica;
      INSERT INTO webhook_endpoints (id, workspace_id, url) SELECT 'wh_' || w, CASE WHEN w = 0 THEN '${ws}' ELSE 'growth-' || w END, 'https://example.com/h' FROM generate_series(0, 49) w;
      INSERT INTO webhook_deliveries (id, workspace_id, endpoint_id, event_id, event_name, status, created_at, updated_at)
        SELECT 'whd_' || g, CASE WHEN g % 50 = 0 THEN '${ws}' ELSE 'growth-' || (g % 50) END, 'wh_' || (g % 50), 'evt_g' || lpad(g::text, 10, '0') || 'sent',
               'mensagem.enviada', CASE WHEN g % 10 = 0 THEN 'failed' ELSE 'succeeded' END, now() - g * interval '10 s', now() - g * interval '10 s'
        FROM generate_series(1, 40000) g;
      INSERT INTO webhook_attempts (workspace_id, delivery_id, at, status_code, duration_ms) SELECT CASE WHEN g % 50 = 0 THEN '${ws}' ELSE 'growth-' || (g % 50) END, 'whd_' || g, now() - g * interval '10 s', 200, 12 FROM generate_series(1, 40000) g;
      INSERT INTO flows (id, workspace_id, name, status) SELECT 'flow_' || w, CASE WHEN w = 0 THEN '${ws}' ELSE 'growth-' || w END, 'Flow', 'active' FROM generate_series(0, 49) w;
      INSERT INTO flow_runs (id, workspace_id, flow_id, version, contact_id, mode, status, created_at, updated_at)
        SELECT 'run_' || g, CASE WHEN g % 50 = 0 THEN '${ws}' ELSE 'growth-' || (g % 50) END, 'flow_' || (g % 50), 1, 'ct_g' || (g % 50) || '_1', 'live',
               CASE WHEN g % 7 = 0 THEN 'active' ELSE 'completed' END::"RunStatus", now() - g * interval '10 s', now() - g * interval '10 s'
        FROM generate_series(1, 40000) g;
      INSERT INTO flow_run_history (workspace_id, run_id, at, kind) SELECT CASE WHEN g % 50 = 0 THEN '${ws}' ELSE 'growth-' || (g % 50) END, 'run_' || g, now() - g * interval '10 s', 'enrolled' FROM generate_series(1, 40000) g;
      INSERT INTO audit_events (id, workspace_id, actor_type, actor_id, action, target_type, target_id, created_at)
        SELECT 'aud_' || lpad(g::text, 10, '0'), CASE WHEN g % 50 = 0 THEN '${ws}' ELSE 'growth-' || (g % 50) END,
               CASE WHEN g % 3 = 0 THEN 'cli' ELSE 'user' END::"AuditActorType", CASE WHEN g % 3 = 0 THEN NULL ELSE 'usr_' || (g % 7) END,
               CASE WHEN g % 2 = 0 THEN 'api_key.created' ELSE 'webhook.updated' END, 'api_key', 'key_' || g, now() - g * interval '10 s'
        FROM generate_series(1, 40000) g;
    `);
    for (const table of ["webhook_deliveries", "webhook_attempts", "flow_runs", "flow_run_history", "audit_events"])
      await sql(`VACUUM ANALYZE ${table}`);
    process.env.DATABASE_URL = url;
    database = await db();
  }, 600_000);

  afterAll(async () => {
    pg.Client.prototype.query = originalQuery;
    await closeDb();
    await drop?.();
  });

  /** Runs `call` with the driver's statements captured, then EXPLAINs each of them. */
  async function plansOf(call: () => Promise<unknown>): Promise<{ text: string; problems: string[] }[]> {
    captured.length = 0;
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const [first, second] = args as [string | { text: string; values?: unknown[] }, unknown[] | undefined];
      const text = typeof first === "string" ? first : first.text;
      const values = typeof first === "string" ? (second ?? []) : (first.values ?? []);
      if (/^\s*(SELECT|WITH)/i.test(text)) captured.push({ text, values: Array.isArray(values) ? values : [] });
      return (originalQuery as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof pg.Client.prototype.query;
    try {
      await call();
    } finally {
      pg.Client.prototype.query = originalQuery;
    }
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const out = [];
      for (const q of captured) {
        const { rows } = await client.query(`EXPLAIN (FORMAT JSON) ${q.text}`, q.values);
        const plan = (rows[0]["QUERY PLAN"] as { Plan: Plan }[])[0]!.Plan;
        out.push({ text: q.text, problems: unscopedScans(plan) });
      }
      return out;
    } finally {
      await client.end();
    }
  }

  const LIST_URL = "http://localhost/api/v1/messages";
  const id = "msg_g0000000150"; // a test-mode WhatsApp message of the workspace (the fill's row 150)
  const cases: [string, () => Promise<unknown>][] = [
    ["inspector: newest first", () => searchMessages(database, ws, {}, { limit: 25 })],
    ["inspector: next page", () => searchMessages(database, ws, { mode: "live" }, { limit: 25, after: "msg_g0000000100" })],
    ["inspector: by message id", () => searchMessages(database, ws, { q: id }, { limit: 25 })],
    ["inspector: by phone", () => searchMessages(database, ws, { q: "+55 21 90000-0001" }, { limit: 25 })],
    ["inspector: by e-mail", () => searchMessages(database, ws, { q: "PERSON1@EXAMPLE.COM" }, { limit: 25 })],
    ["inspector: failed only, with names", () => searchMessages(database, ws, { status: "failed" }, { limit: 25 })],
    // The dashboard's list always asks in the mode of its test/live switch.
    ["inspector: one mode, newest first", () => searchMessages(database, ws, { mode: "live" }, { limit: 25 })],
    ["inspector: one mode, by phone", () => searchMessages(database, ws, { q: "+55 21 90000-0001", mode: "test" }, { limit: 25 })],
    ["inspector: one contact's messages", () => searchMessages(database, ws, { contact_id: "ct_g0_1" }, { limit: 10 })],
    [
      "inspector: CSV export, two pages",
      async () => {
        let pages = 0;
        for await (const page of exportMessages(database, ws, { channel: "email" })) if (++pages === 2 || page.length === 0) break;
      },
    ],
    ["inspector: a message with its history, names and webhook deliveries", () => messageDetail(database, ws, id)],
    ["GET /messages/{id}", () => getMessageOrThrow(database, { workspaceId: ws, mode: "test" }, id)],
    ["GET /messages, newest first", () => listMessages(database, { workspaceId: ws, mode: "test" }, {}, { limit: 50 }, LIST_URL)],
    [
      "GET /messages, next page, failed WhatsApp only",
      () =>
        listMessages(
          database,
          { workspaceId: ws, mode: "test" },
          { status: "failed", channel: "whatsapp" },
          { limit: 50, after: id },
          LIST_URL,
        ),
    ],
    ["usage page", () => usageReport(database, ws)],
    ["overview: volume, outcomes of the newest messages, endpoints, flows, setup steps", () => workspaceOverview(database, ws, "live")],
    ["overview of test messages", () => workspaceOverview(database, ws, "test")],
    ["contact history", () => contactHistory(database, ws, "ct_g0_1")],
    ["webhook endpoints with their last 24 hours", () => listEndpoints(database, ws)],
    ["webhook delivery log", () => listDeliveries(database, ws, { endpoint_id: "wh_0" })],
    ["webhook delivery log, failed only", () => listDeliveries(database, ws, { endpoint_id: "wh_0", status: "failed" })],
    ["one webhook delivery", () => getDelivery(database, ws, { delivery_id: "whd_50" })],
    ["flows with their run counts", () => listFlows(database, ws)],
    ["flow runs list", () => listRuns(database, ws, { flow_id: "flow_0", limit: 25 })],
    ["flow runs list, active only", () => listRuns(database, ws, { flow_id: "flow_0", status: "active", limit: 25 })],
    ["one flow run", () => getRun(database, ws, "run_50")],
    ["audit log, newest first", () => listAuditEvents(database, ws, {})],
    ["audit log, next page", () => listAuditEvents(database, ws, { after: "aud_0000000500" })],
    ["audit log by action and actor", () => listAuditEvents(database, ws, { action: "api_key.created", actor: "cli" })],
    ["a contact's runs", () => contactRuns(database, ws, "ct_g0_1")],
    [
      "a contact's events in both modes (its page)",
      () => listContactEvents(database, { workspaceId: ws, mode: null }, { contact_id: "ct_g0_1" }, { limit: 10 }, null),
    ],
  ];

  it.each(cases)("%s: index scans within the workspace, no sequential scan of a growing table", async (_name, call) => {
    const plans = await plansOf(call);
    expect(plans.length).toBeGreaterThan(0);
    for (const { text, problems } of plans) expect(problems, text).toEqual([]);
  });

  it("the searches find what they look for", async () => {
    const byPhone = await searchMessages(database, ws, { q: "+5521900000001" }, { limit: 25 });
    expect(byPhone.items.length).toBeGreaterThan(0);
    expect(byPhone.items.every((m) => m.to === "+5521900000001")).toBe(true);
    const byEmail = await searchMessages(database, ws, { q: "PERSON1@EXAMPLE.COM" }, { limit: 25 });
    expect(byEmail.items.length).toBeGreaterThan(0);
    expect(byEmail.items.every((m) => m.to === "Person1@example.com")).toBe(true);
    expect((await searchMessages(database, ws, { q: id }, { limit: 25 })).items.map((m) => m.id)).toEqual([id]);
    const first = await searchMessages(database, ws, {}, { limit: 3 });
    const second = await searchMessages(database, ws, {}, { limit: 3, after: first.next! });
    expect(second.items[0]!.created_at <= first.items[2]!.created_at).toBe(true);
    expect(new Set([...first.items, ...second.items].map((m) => m.id)).size).toBe(6);
  });
});
