import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { freshDatabase } from "../../e2e/support/database.ts";
import { applyMigrations, pendingSchemaChange, readMigrations } from "./migrate.ts";

describe("migrations (ARCHITECTURE.md Databases)", () => {
  it("schema.prisma and the committed migration history agree (no drift)", async () => {
    const sql = await pendingSchemaChange();
    expect(sql, `schema.prisma changed without a migration: run npm run db:migrate:new -- <name>\n${sql}`).toBe("");
  });

  const all = readMigrations().migrationDirectories.map((d) => d.path);

  it("applies every migration to PGlite once, and nothing the second time", async () => {
    const client = await PGlite.create();
    expect(await applyMigrations({ pglite: client })).toEqual(all);
    expect(await applyMigrations({ pglite: client })).toEqual([]);
    const { rows } = await client.query<{ n: number }>("select count(*)::int as n from _prisma_migrations where finished_at is not null");
    expect(rows[0]!.n).toBe(all.length);
    await client.close();
  });

  it("applies to PostgreSQL the same way and releases its advisory lock", async () => {
    const database = await freshDatabase("postgres", "migrate");
    try {
      const url = database.env.DATABASE_URL!;
      expect(await applyMigrations({ pg: { connectionString: url } })).toEqual(all);
      expect(await applyMigrations({ pg: { connectionString: url } })).toEqual([]);
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      // This database's locks: other tests' servers take advisory locks on the same cluster.
      const locks = await c.query(
        "select count(*)::int as n from pg_locks where locktype = 'advisory' and database = (select oid from pg_database where datname = current_database())",
      );
      await c.end();
      expect(locks.rows[0].n).toBe(0);
    } finally {
      await database.drop();
    }
  });
});
