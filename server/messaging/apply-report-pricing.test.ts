import { describe, expect, it } from "vitest";
import { openFreshDatabase } from "../../e2e/support/open-database.ts";
import { applyReports, type Report } from "./apply-report.ts";

// D89: a WhatsApp message keeps the pricing of its latest status report (a report that moves
// no status still changes it), and the live usage counter of the day it was accepted counts
// it by category, charged or free, moved from the old key to the new one in the same statement.

describe.each(["pglite", "postgres"] as const)("WhatsApp pricing of status reports on %s", (engine) => {
  it("keeps the latest pricing per message and counts it once in the day's usage counter", async () => {
    const { database, drop } = await openFreshDatabase(engine, "pricing");
    const sql = database.query;
    try {
      await sql(`INSERT INTO workspaces (id, name) VALUES ('ws_p', 'P')`);
      await sql(`INSERT INTO contacts (id, workspace_id, phone) VALUES ('ct_p', 'ws_p', '+5511900000001')`);
      await sql(
        `INSERT INTO messages (id, workspace_id, mode, channel, contact_id, "to", content, created_at)
         VALUES ('msg_1', 'ws_p', 'live', 'whatsapp', 'ct_p', '+5511900000001', '{}', '2026-11-30T23:00:00Z'),
                ('msg_2', 'ws_p', 'live', 'whatsapp', 'ct_p', '+5511900000001', '{}', '2026-11-30T23:30:00Z'),
                ('msg_3', 'ws_p', 'test', 'whatsapp', 'ct_p', '+5511900000001', '{}', '2026-11-30T23:30:00Z')`,
      );
      await sql(
        `INSERT INTO usage_counters (workspace_id, day, channel, mode, count) VALUES ('ws_p', '2026-11-30', 'whatsapp', 'live', 2)`,
      );
      const report = (status: Report["status"], category?: string, type = "regular") => ({
        status,
        kind: "provider_report" as const,
        ...(category ? { pricing: { category, type } } : {}),
      });
      const apply = (reports: [string, Report][]) =>
        database.transaction((tx) =>
          applyReports(
            tx,
            reports.map(([messageId, r]) => ({ messageId, report: r })),
          ),
        );
      const counter = async () =>
        (await sql<{ count: number; whatsapp_pricing: Record<string, number> }>(`SELECT count, whatsapp_pricing FROM usage_counters`))[0];
      const message = async (id: string) =>
        (await sql<{ status: string; pricing: unknown }>(`SELECT status::text AS status, pricing FROM messages WHERE id = $1`, [id]))[0];

      // Before any report: no pricing.
      expect(await message("msg_1")).toEqual({ status: "queued", pricing: null });
      // One batch: a charged marketing message, a free one, a test-mode one (not usage).
      expect(
        await apply([
          ["msg_1", report("sent", "marketing")],
          ["msg_2", report("sent", "service", "free_customer_service")],
          ["msg_3", report("sent", "marketing")],
        ]),
      ).toEqual([true, true, true]);
      expect(await message("msg_1")).toEqual({ status: "sent", pricing: { category: "marketing", type: "regular" } });
      expect(await counter()).toEqual({ count: 2, whatsapp_pricing: { "marketing:charged": 1, "service:free": 1 } });
      // The same pricing again on the next report counts nothing more; a report without pricing keeps it.
      await apply([["msg_1", report("delivered", "marketing")]]);
      await apply([["msg_2", report("delivered")]]);
      expect(await message("msg_2")).toEqual({ status: "delivered", pricing: { category: "service", type: "free_customer_service" } });
      expect(await counter()).toEqual({ count: 2, whatsapp_pricing: { "marketing:charged": 1, "service:free": 1 } });
      // A late report that moves no status still brings its new pricing, moved from the old key.
      expect(await apply([["msg_2", report("sent", "utility")]])).toEqual([false]);
      expect(await message("msg_2")).toEqual({ status: "delivered", pricing: { category: "utility", type: "regular" } });
      expect(await counter()).toEqual({ count: 2, whatsapp_pricing: { "marketing:charged": 1, "utility:charged": 1 } });
      // A category Meta adds later is kept as it comes.
      await apply([["msg_1", report("read", "marketing_lite")]]);
      expect((await counter())!.whatsapp_pricing).toEqual({ "marketing_lite:charged": 1, "utility:charged": 1 });
    } finally {
      await drop();
    }
  });
});
