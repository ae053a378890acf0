import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openFreshDatabase } from "../../e2e/support/open-database.ts";
import { PG_ADMIN_URL } from "../../e2e/support/database.ts";
import { pgDatabase, type Database } from "../db/client.ts";
import { newId } from "../lib/ids.ts";
import { acceptMessage, type NewMessage } from "./insert-messages.ts";

// A batch of live sends locks each workspace it counts (D25), one statement per workspace, so
// two processes' batches over the same workspaces never wait for each other in a cycle (a
// deadlock, which PostgreSQL would break after a second, the batch then written again message
// by message).

let one: Awaited<ReturnType<typeof openFreshDatabase>>;
let other: Database;

beforeAll(async () => {
  one = await openFreshDatabase("postgres", "lockorder");
  const url = (await one.database.query<{ db: string }>(`SELECT current_database() AS db`))[0]!.db;
  const admin = new URL(PG_ADMIN_URL);
  admin.pathname = `/${url}`;
  other = await pgDatabase({ connectionString: admin.toString() }, 2, true); // a second process's pool
  await one.database.query(`INSERT INTO workspaces (id, name) VALUES ('ws_a', 'A'), ('ws_b', 'B'), ('ws_c', 'C'), ('ws_d', 'D')`);
  await one.database.query(
    `INSERT INTO contacts (id, workspace_id, phone) VALUES ('ct_a', 'ws_a', '+5511900000001'), ('ct_b', 'ws_b', '+5511900000001'), ('ct_c', 'ws_c', '+5511900000001'), ('ct_d', 'ws_d', '+5511900000001')`,
  );
}, 120_000);

afterAll(async () => {
  await other?.close();
  await one?.drop();
});

const send = (database: Database, workspace: "a" | "b" | "c" | "d") => {
  const message: NewMessage = {
    sender: { workspaceId: `ws_${workspace}`, mode: "live" },
    channel: "whatsapp",
    channelId: null,
    contactId: `ct_${workspace}`,
    address: "+5511900000001",
    content: { body: "hi" },
    source: "api",
  };
  return acceptMessage(database, { id: newId("message"), message, at: new Date(), cause: { requestId: null, traceparent: null } });
};

const deadlocks = async () =>
  Number((await one.database.query<{ n: string }>(`SELECT deadlocks AS n FROM pg_stat_database WHERE datname = current_database()`))[0]!.n);

describe("live batches of two processes", () => {
  it("lock their workspaces in one order and never deadlock", async () => {
    const before = await deadlocks();
    const started = Date.now();
    for (let round = 0; round < 20; round++) {
      // Each process's first send goes alone (to a workspace of its own, so neither waits for
      // the other); the next two arrive meanwhile and go together, in opposite orders.
      await Promise.all([
        send(one.database, "c"),
        send(one.database, "a"),
        send(one.database, "b"),
        send(other, "d"),
        send(other, "b"),
        send(other, "a"),
      ]);
    }
    expect(await one.database.query(`SELECT count(*)::int AS n FROM messages`)).toEqual([{ n: 120 }]);
    // pg_stat_database is updated when a backend reports its statistics: wait for it.
    await new Promise((r) => setTimeout(r, 1_000));
    expect(await deadlocks()).toBe(before);
    console.log(`lock order: 20 rounds in ${Date.now() - started} ms`);
  });
});
