import pg from "pg";
import { expect, it } from "vitest";
import { freshDatabase } from "../../e2e/support/database.ts";
import { isRolledBackByConflict, pgDatabase } from "../db/client.ts";
import { recordOutcome } from "./jobs.ts";

// The outcome of a call that was made is recorded even when its transaction loses a deadlock
// (as one can while Citus moves a shard with its writes held, D87): PostgreSQL rolls the
// victim back whole, and recordOutcome writes it again at once, instead of throwing and leaving
// the message to wait out its job's lease (D47 forbids the call again). A real deadlock on
// PostgreSQL: the outcome's transaction locks row 2 then row 1, another locks 1 then 2.
it("records an outcome again when its transaction was a deadlock's victim", async () => {
  const fresh = await freshDatabase("postgres", "record_outcome");
  const database = await pgDatabase({ connectionString: fresh.env.DATABASE_URL }, 2, true);
  const other = new pg.Client({ connectionString: fresh.env.DATABASE_URL });
  await other.connect();
  try {
    await database.query(`CREATE TABLE rows_locked (id int PRIMARY KEY, n int NOT NULL DEFAULT 0)`);
    await database.query(`INSERT INTO rows_locked (id) VALUES (1), (2)`);
    await other.query("BEGIN");
    await other.query(`UPDATE rows_locked SET n = n + 1 WHERE id = 1`);
    const errors: unknown[] = [];
    let tries = 0;
    let othersTurn: Promise<unknown> | undefined;
    const recorded = recordOutcome(async () => {
      tries++;
      try {
        return await database.transaction(async (sql) => {
          await sql(`UPDATE rows_locked SET n = n + 10 WHERE id = 2`);
          // The other transaction asks for row 2 once this one waits for row 1: the one that
          // waited first finds the deadlock (deadlock_timeout, 1 s) and is rolled back.
          othersTurn ??= new Promise((resolve) => setTimeout(resolve, 200)).then(async () => {
            await other.query(`UPDATE rows_locked SET n = n + 1 WHERE id = 2`);
            await other.query("COMMIT");
          });
          await sql(`UPDATE rows_locked SET n = n + 10 WHERE id = 1`);
          return "recorded";
        });
      } catch (err) {
        errors.push(err);
        throw err;
      }
    });
    expect(await recorded).toBe("recorded");
    await othersTurn;
    expect(tries).toBe(2);
    expect(errors.map(isRolledBackByConflict)).toEqual([true]);
    // The first try left nothing: each transaction's writes are there once.
    expect(await database.query(`SELECT id, n FROM rows_locked ORDER BY id`)).toEqual([
      { id: 1, n: 11 },
      { id: 2, n: 11 },
    ]);
  } finally {
    await other.end();
    await database.close();
    await fresh.drop();
  }
});
