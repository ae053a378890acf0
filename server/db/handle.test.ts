import { describe, expect, it } from "vitest";
import { openFreshDatabase } from "../../e2e/support/open-database.ts";
import { findContactBy } from "../contacts/get-contact.ts";

// Issue 11's one handle: the same helper, given `database.query` or a transaction's handle,
// reads what that handle sees, on both engines. Inside a transaction it sees the
// transaction's own uncommitted row (on PGlite without waiting for the transaction it is
// in), and a rolled-back row is gone for every handle afterwards.
describe.each(["pglite", "postgres"] as const)("one Handle on %s", (engine) => {
  it("runs a helper inside a transaction and outside one", async () => {
    const { database, drop } = await openFreshDatabase(engine, "handle");
    const insert = `INSERT INTO contacts (id, workspace_id, phone) VALUES ($1, 'ws-h', $2)`;
    try {
      await database.query(`INSERT INTO workspaces (id, name) VALUES ('ws-h', 'H')`);
      const inside = await database.transaction(async (tx) => {
        await tx(insert, ["ct_kept", "+5511999990001"]);
        return findContactBy(tx, "ws-h", { phone: "+5511999990001" });
      });
      expect(inside?.id).toBe("ct_kept");
      expect((await findContactBy(database.query, "ws-h", { id: "ct_kept" }))?.phone).toBe("+5511999990001");

      await expect(
        database.transaction(async (tx) => {
          await tx(insert, ["ct_undone", "+5511999990002"]);
          expect(await findContactBy(tx, "ws-h", { id: "ct_undone" })).not.toBeNull();
          throw new Error("undo");
        }),
      ).rejects.toThrow("undo");
      expect(await findContactBy(database.query, "ws-h", { id: "ct_undone" })).toBeNull();
    } finally {
      await drop();
    }
  });
});
