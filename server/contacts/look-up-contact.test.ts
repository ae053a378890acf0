import { describe, expect, it } from "vitest";
import { openFreshDatabase } from "../../e2e/support/open-database.ts";
import { findContactBy, lookUpContact } from "./get-contact.ts";

// Issue 11: look-ups that arrive together share one statement; each gets the contact that
// `findContactBy` finds alone (D59's e-mail match included), in its own workspace.
describe.each(["pglite", "postgres"] as const)("contact look-ups on %s", (engine) => {
  it("answers concurrent look-ups by id, phone and e-mail as one look-up each would", async () => {
    const { database, drop } = await openFreshDatabase(engine, "lookup");
    try {
      await database.query(`INSERT INTO workspaces (id, name) VALUES ('ws-a', 'A'), ('ws-b', 'B')`);
      await database.query(
        `INSERT INTO contacts (id, workspace_id, phone, email, email_key) VALUES
           ('ct_a1', 'ws-a', '+5511999990001', 'Ana@Example.com', 'ana@example.com'),
           ('ct_a2', 'ws-a', '+5511999990002', NULL, NULL),
           ('ct_b1', 'ws-b', '+5511999990001', 'bia@example.com', 'bia@example.com')`,
      );
      const asks = [
        ["ws-a", { id: "ct_a1" }],
        ["ws-a", { id: "ct_b1" }],
        ["ws-a", { phone: "+5511999990001" }],
        ["ws-b", { phone: "+5511999990001" }],
        ["ws-a", { phone: "+5511999990002" }],
        ["ws-a", { phone: "+5511999990009" }],
        ["ws-a", { email: "ana@example.com" }],
        ["ws-a", { email: "ANA@EXAMPLE.COM" }],
        ["ws-a", { email: "bia@example.com" }],
        ["ws-b", { email: "bia@example.com" }],
      ] as const;
      const together = await Promise.all(asks.map(([ws, by]) => lookUpContact(database, ws, by)));
      const alone = [];
      for (const [ws, by] of asks) alone.push(await findContactBy(database.query, ws, by));
      expect(together).toEqual(alone);
      expect(together.map((c) => c?.id ?? null)).toEqual(["ct_a1", null, "ct_a1", "ct_b1", "ct_a2", null, "ct_a1", "ct_a1", null, "ct_b1"]);
    } finally {
      await drop();
    }
  });
});
