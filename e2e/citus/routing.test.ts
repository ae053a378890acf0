import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { pgDatabase, type Database } from "../../server/db/client.ts";
import { wakeRunsForEvents } from "../../server/flows/wake-runs.ts";
import { searchWorkspace } from "../../server/search/search.ts";
import { query } from "./shards.ts";

// D87: reads that name their workspace, so that Citus sends each to that workspace's shard
// alone: the dashboard's search box, and the wake-up of runs after contact events. Citus raises an error for a statement it runs as tasks on
// several shards once `citus.multi_task_query_log_level` says so: set for the connection the
// search runs on, a read over every shard (as the metadata lookup, and a message's contact
// joined by its column alone, were) fails the test.

const ws = "ws_routing";

describe("reads routed to one shard on Citus (D87)", () => {
  let database: Database;

  beforeAll(async () => {
    await query(`INSERT INTO workspaces (id, name) VALUES ($1, 'Routing')`, [ws]);
    await query(
      `INSERT INTO contacts (id, workspace_id, phone, email, email_key, name) VALUES ('ct_sr1', $1, '+5521900000001', 'ana@route.example', 'ana@route.example', 'Ana Route')`,
      [ws],
    );
    await query(
      `INSERT INTO messages (id, workspace_id, mode, channel, contact_id, "to", content, metadata)
       VALUES ('msg_sr1', $1, 'test', 'whatsapp', 'ct_sr1', '+5521900000001', '{}', '{"order_id": "ord_route_1"}')`,
      [ws],
    );
    database = await pgDatabase(
      { connectionString: inject("api").env.DATABASE_URL, options: "-c citus.multi_task_query_log_level=error" },
      1,
      true,
    );
  });

  afterAll(async () => {
    await database?.close();
    for (const table of ["messages", "contacts"]) await query(`DELETE FROM ${table} WHERE workspace_id = $1`, [ws]);
    await query(`DELETE FROM workspaces WHERE id = $1`, [ws]);
  });

  it("reads one shard for a metadata value, a name, an id, an e-mail and a phone", async () => {
    for (const [q, id] of [
      ["ord_route_1", "msg_sr1"],
      ["Ana Ro", "ct_sr1"],
      ["msg_sr1", "msg_sr1"],
      ["ana@route.example", "ct_sr1"],
      ["+55 21 90000-0001", "ct_sr1"],
    ] as const) {
      const found = await searchWorkspace(database, ws, q);
      expect(
        found.hits.map((h) => h.id),
        q,
      ).toContain(id);
    }
  });

  it("reads one shard to find the runs that contact events wake", async () => {
    const event = {
      id: "cev_routing",
      workspace_id: ws,
      contact_id: "ct_sr1",
      mode: "test",
      name: "routed",
      request_id: null,
      traceparent: null,
    };
    expect([...(await database.transaction((tx) => wakeRunsForEvents(tx, [event])))]).toEqual([]);
  });
});
