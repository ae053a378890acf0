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

// The embedded store runs one transaction at a time, so a transaction started while another
// runs waits for it. Prisma's interactive transaction waited 2 s by default and then failed
// (P2028, "Unable to start a transaction in the given time"): on a loaded machine a complaint
// mailed to the bounce listener was refused with 451 behind the pipeline's transactions. It
// now waits as long as any other work waits for the database (server/db/waits.ts).
describe("a Prisma transaction on the embedded store", () => {
  it("waits its turn behind a transaction that runs longer than Prisma's 2 s default", async () => {
    const { database, drop } = await openFreshDatabase("pglite", "handle-wait");
    try {
      let held = 0;
      const holder = database.transaction(async (tx) => {
        await tx("SELECT 1");
        const start = Date.now();
        await new Promise((resolve) => setTimeout(resolve, 3_000));
        held = Date.now() - start;
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
      const answer = await database.prisma.$transaction((tx) => tx.$queryRawUnsafe<{ one: number }[]>("SELECT 1 AS one"));
      await holder;
      expect(held).toBeGreaterThanOrEqual(3_000);
      expect(answer).toEqual([{ one: 1 }]);
    } finally {
      await drop();
    }
  });
});
