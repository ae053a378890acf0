import { describe, expect, it } from "vitest";
import { api } from "../support/client.ts";
import { poll } from "../support/until.ts";
import { shardNames } from "../support/fixtures.ts";
import { oneWorkspacePerWorker, query, workersWithRows } from "./shards.ts";

// D87: on a database with Citus, the migrations leave no table local to the coordinator: a
// workspace's tables are distributed by workspace_id and co-located with `workspaces`, the
// global ones are reference tables; and sends from workspaces on different workers put their
// rows on both.

/** The tables of the public schema with their Citus layout: `h` distributed by hash, `n` reference, null local. */
const LAYOUT = `
  SELECT c.relname AS table, p.partmethod AS method,
    CASE WHEN p.partkey IS NOT NULL THEN column_to_column_name(p.logicalrelid, p.partkey) END AS column,
    p.colocationid = (SELECT colocationid FROM pg_dist_partition WHERE logicalrelid = 'workspaces'::regclass) AS with_workspaces,
    EXISTS (SELECT 1 FROM pg_attribute w WHERE w.attrelid = c.oid AND w.attname = 'workspace_id' AND NOT w.attisdropped) AS has_workspace
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
  LEFT JOIN pg_dist_partition p ON p.logicalrelid = c.oid
  WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')
  ORDER BY 1`;

type Layout = { table: string; method: string | null; column: string | null; with_workspaces: boolean | null; has_workspace: boolean };

// Fixture workspaces no other file of the project sends from.
const NAMES = shardNames("layout");

describe("the Citus layout (D87)", () => {
  it("distributes every workspace table by workspace_id with workspaces, makes the rest reference tables, leaves none local", async () => {
    const tables = await query<Layout>(LAYOUT);
    expect(tables.length).toBeGreaterThan(30);
    expect(tables.filter((t) => t.method === null).map((t) => t.table)).toEqual([]);
    for (const t of tables) {
      if (t.table === "workspaces") expect(t).toMatchObject({ method: "h", column: "id", with_workspaces: true });
      else if (t.has_workspace && t.table !== "api_keys")
        expect(t, t.table).toMatchObject({ method: "h", column: "workspace_id", with_workspaces: true });
      else expect(t, t.table).toMatchObject({ method: "n" });
    }
    const reference = tables.filter((t) => t.method === "n").map((t) => t.table);
    expect(reference.sort()).toEqual(
      ["_prisma_migrations", "api_keys", "dashboard_sessions", "rate_limit_counters", "service_settings", "sns_messages", "users"].sort(),
    );
  });

  it("puts the contacts and tags of workspaces on different workers on both workers", async () => {
    const byWorker = await oneWorkspacePerWorker(NAMES);
    for (const workspace of byWorker.values()) {
      const key = workspace.keys.test!;
      const phone = `+55119${String(Date.now()).slice(-8)}`;
      const tag = await api(key).post("/tags", { name: `shard-${Date.now()}` });
      expect(tag.status, JSON.stringify(tag.body)).toBe(201);
      const res = await api(key).post("/contacts", { phone, name: "On a shard", tags: [tag.body.id] });
      expect([200, 201], JSON.stringify(res.body)).toContain(res.status);
    }
    const ports = [...byWorker.keys()].sort((a, b) => a - b);
    for (const table of ["contacts", "tags", "contact_tags"]) expect(await workersWithRows(table), table).toEqual(ports);
  });

  // The send path and the pipeline name one workspace in every statement (more in send-and-journey.test.ts).
  it("puts the messages of workspaces on different workers on both workers, walked to read by the pipeline", async () => {
    const byWorker = await oneWorkspacePerWorker(NAMES);
    const ids: string[] = [];
    for (const workspace of byWorker.values()) {
      const key = workspace.keys.test!;
      const phone = `+55119${String(Date.now()).slice(-8)}`;
      const res = await api(key).post("/messages", { channel: "whatsapp", to: { phone }, whatsapp: { body: "Hello from a shard" } });
      expect(res.status, JSON.stringify(res.body)).toBe(202);
      ids.push(res.body.id);
    }
    // Each walks to read (D35), through the pipeline's claims in both workspaces.
    await poll(
      () => query<{ n: number }>(`SELECT count(*)::int AS n FROM messages WHERE id = ANY($1::text[]) AND status = 'read'`, [ids]),
      (rows) => rows[0]!.n === ids.length,
      20_000,
    );
    const ports = [...byWorker.keys()].sort((a, b) => a - b);
    for (const table of ["messages", "message_history", "contacts", "events"]) expect(await workersWithRows(table), table).toEqual(ports);
  });
});
