import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { freshDatabase } from "../../e2e/support/database.ts";
import { readMigrations } from "./migrate.ts";

// D59's migration on a database that already has contacts whose e-mail addresses differ
// only by case: it merges nothing, reports every such contact in contact_email_duplicates
// (and a NOTICE), gives the oldest of each group the address key, and from then on no new
// contact or address change can collide with any of them. Run on both engines.
const migrations = readMigrations().migrationDirectories;
const index = migrations.findIndex((m) => m.path.endsWith("_integrators"));
const before = migrations.slice(0, index).map((m) => (m.migrationFile.content as { value: string }).value);
const d59 = (migrations[index]!.migrationFile.content as { value: string }).value;

const LEGACY = `
  INSERT INTO workspaces (id, name) VALUES ('ws-a', 'A'), ('ws-b', 'B');
  INSERT INTO contacts (id, workspace_id, email, created_at) VALUES
    ('ct_1', 'ws-a', 'Ana.Case@example.com', '2026-01-01'),
    ('ct_2', 'ws-a', 'ana.case@example.com', '2026-01-02'),
    ('ct_3', 'ws-a', 'ANA.CASE@example.com', '2026-01-03'),
    ('ct_4', 'ws-a', 'bob@example.com', '2026-01-01'),
    ('ct_5', 'ws-b', 'ana.case@example.com', '2026-01-01'),
    ('ct_6', 'ws-a', NULL, '2026-01-01');`;

type Query = (sql: string) => Promise<{ rows: Record<string, unknown>[] }>;

async function check(query: Query) {
  const report = await query(
    "SELECT contact_id, workspace_id, email, email_key, holds_address FROM contact_email_duplicates ORDER BY contact_id",
  );
  expect(report.rows).toEqual([
    { contact_id: "ct_1", workspace_id: "ws-a", email: "Ana.Case@example.com", email_key: "ana.case@example.com", holds_address: true },
    { contact_id: "ct_2", workspace_id: "ws-a", email: "ana.case@example.com", email_key: "ana.case@example.com", holds_address: false },
    { contact_id: "ct_3", workspace_id: "ws-a", email: "ANA.CASE@example.com", email_key: "ana.case@example.com", holds_address: false },
  ]);
  // Nothing merged, nothing rewritten: every contact keeps its address as given.
  const contacts = await query("SELECT id, email, email_key FROM contacts ORDER BY id");
  expect(contacts.rows).toEqual([
    { id: "ct_1", email: "Ana.Case@example.com", email_key: "ana.case@example.com" },
    { id: "ct_2", email: "ana.case@example.com", email_key: null },
    { id: "ct_3", email: "ANA.CASE@example.com", email_key: null },
    { id: "ct_4", email: "bob@example.com", email_key: "bob@example.com" },
    { id: "ct_5", email: "ana.case@example.com", email_key: "ana.case@example.com" },
    { id: "ct_6", email: null, email_key: null },
  ]);
  // The unique index holds from now on, also against the legacy group.
  await expect(
    query("INSERT INTO contacts (id, workspace_id, email, email_key) VALUES ('ct_7', 'ws-a', 'BOB@example.com', 'bob@example.com')"),
  ).rejects.toThrow(/unique|duplicate/i);
  await expect(
    query(
      "INSERT INTO contacts (id, workspace_id, email, email_key) VALUES ('ct_8', 'ws-a', 'ana.CASE@example.com', 'ana.case@example.com')",
    ),
  ).rejects.toThrow(/unique|duplicate/i);
}

describe("D59 migration with contacts that differ only by case", () => {
  it("reports them and merges nothing on PGlite", async () => {
    const client = await PGlite.create();
    const notices: string[] = [];
    for (const sql of before) await client.exec(sql);
    await client.exec(LEGACY);
    await client.exec(d59, { onNotice: (n) => notices.push(n.message ?? "") });
    expect(notices.join("\n")).toMatch(/3 contacts share an e-mail address/);
    await check((sql) => client.query(sql));
    await client.close();
  });

  it("reports them and merges nothing on PostgreSQL", async () => {
    const database = await freshDatabase("postgres", "email-case");
    const client = new pg.Client({ connectionString: database.env.DATABASE_URL });
    try {
      await client.connect();
      const notices: string[] = [];
      client.on("notice", (n) => notices.push(n.message ?? ""));
      for (const sql of before) await client.query(sql);
      await client.query(LEGACY);
      await client.query(d59);
      expect(notices.join("\n")).toMatch(/3 contacts share an e-mail address/);
      await check((sql) => client.query(sql));
    } finally {
      await client.end();
      await database.drop();
    }
  });
});
