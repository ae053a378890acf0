import { describe, expect, it } from "vitest";
import { openFreshDatabase } from "../../e2e/support/open-database.ts";
import { countLiveMessages } from "./quota.ts";

// D25: live messages are counted against the workspace's daily limit per channel and its
// monthly limit, each as if alone and in order, in one statement (`count_live_messages`) that
// locks the workspace's row and reads its counters after the lock. The limits are computed
// from the workspace's columns as this process last saw them, checked under that lock. An
// sms's segments are counted with it (D97).

describe.each(["pglite", "postgres"] as const)("counting live messages on %s", (engine) => {
  it("counts exactly under concurrency and follows a limit changed since it was last seen", async () => {
    const { database, drop } = await openFreshDatabase(engine, "quota");
    try {
      await database.query(`INSERT INTO workspaces (id, name, plan, daily_limit) VALUES ('ws_q', 'Q', 'starter', 5)`);
      const at = new Date();
      const count = (n: number) => countLiveMessages(database.query, "ws_q", "whatsapp", at, Array<null>(n).fill(null));
      const used = async () =>
        Number(
          (await database.query<{ n: string }>(`SELECT coalesce(sum(count), 0) AS n FROM usage_counters WHERE workspace_id = 'ws_q'`))[0]!
            .n,
        );

      // Twelve sends at once, each counted alone: five fit, the rest meet the daily limit.
      const outcomes = await Promise.all(Array.from({ length: 12 }, () => count(1)));
      expect(outcomes.filter((o) => o.accepted === 1)).toHaveLength(5);
      for (const o of outcomes.filter((o) => o.accepted === 0)) {
        expect(o.refusal).toMatchObject({ status: 403, code: "daily_limit_reached", param: "channel" });
      }
      expect(await used()).toBe(5);

      // Raised by another process: the next count sees it (the columns it last saw changed).
      await database.query(`UPDATE workspaces SET daily_limit = 9 WHERE id = 'ws_q'`);
      expect(await count(3)).toEqual({ accepted: 3, refusal: null });
      // Lowered: of three, none fit, and the refusal names the new limit.
      await database.query(`UPDATE workspaces SET daily_limit = 7 WHERE id = 'ws_q'`);
      const lowered = await count(3);
      expect(lowered.accepted).toBe(0);
      expect(lowered.refusal?.message).toContain("daily limit of 7 whatsapp messages");
      // A monthly limit of 10 set since, with 8 counted this month: of four e-mails, the first two fit.
      await database.query(`UPDATE workspaces SET daily_limit = 100, monthly_limit = 10, monthly_limit_set = true WHERE id = 'ws_q'`);
      const monthly = await countLiveMessages(database.query, "ws_q", "email", at, [null, null, null, null]);
      expect(monthly.accepted).toBe(2);
      expect(monthly.refusal).toMatchObject({ code: "monthly_limit_reached" });
      expect(await used()).toBe(10);
      // D97: sms count their segments with them, those that fit only: of four, three fit the monthly limit raised to 13.
      await database.query(`UPDATE workspaces SET monthly_limit = 13 WHERE id = 'ws_q'`);
      expect((await countLiveMessages(database.query, "ws_q", "sms", at, [2, 3, 1, 4])).accepted).toBe(3);
      const [sms] = await database.query<{ count: number; segments: number }>(
        `SELECT count, segments FROM usage_counters WHERE workspace_id = 'ws_q' AND channel = 'sms'`,
      );
      expect(sms).toEqual({ count: 3, segments: 6 });
    } finally {
      await drop();
    }
  });
});
