import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { freshDatabase } from "../../e2e/support/database.ts";
import { applyMigrations, pendingSchemaChange, readMigrations } from "./migrate.ts";
import { poll } from "../../e2e/support/until.ts";

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

// Issue 47: a kill can leave no migration half-done, instances serialize, and a migration an
// older release left started and unfinished (Prisma's P3009) is finished by the next start.
describe("migrations that a kill cannot leave half-done", () => {
  const names = readMigrations().migrationDirectories.map((d) => d.path);
  const sqlOf = (name: string) =>
    (readMigrations().migrationDirectories.find((d) => d.path === name)!.migrationFile.content as { value: string }).value;

  async function withDatabase(
    label: string,
    fn: (url: string, query: (sql: string, values?: unknown[]) => Promise<pg.QueryResult>) => Promise<void>,
  ) {
    const database = await freshDatabase("postgres", label);
    const url = database.env.DATABASE_URL!;
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      await fn(url, (sql, values) => c.query(sql, values));
    } finally {
      await c.end();
      await database.drop();
    }
  }

  it("finishes a migration an older release left unfinished: applies it again, or records it when it had taken effect", async () => {
    await withDatabase("migrate_resume", async (url, query) => {
      // The cases: contact_events had committed (its client died after), scheduled_sends had not.
      const [beforeLast, last] = ["20261127110119_contact_events", "20261127113803_scheduled_sends"];
      const previous = names[names.indexOf(beforeLast) - 1]!;
      await applyMigrations({ pg: { connectionString: url } }, { through: previous });
      // What the schema engine left after a kill: rows started, never finished.
      await query(sqlOf(beforeLast));
      for (const name of [beforeLast, last]) {
        await query(
          `INSERT INTO _prisma_migrations (id, checksum, migration_name, started_at, applied_steps_count) VALUES (gen_random_uuid()::text, 'x', $1, now(), 0)`,
          [name],
        );
      }
      const said: string[] = [];
      expect(await applyMigrations({ pg: { connectionString: url } }, { say: (l) => said.push(l) })).toEqual(
        names.filter((n) => n > previous),
      );
      expect(said).toEqual([
        `migration ${beforeLast} had been interrupted after it took effect; recorded it as applied`,
        `migration ${last} had been interrupted before it took effect; applied it again`,
      ]);
      const rows = await query(
        `SELECT migration_name, finished_at IS NOT NULL AS finished, rolled_back_at IS NOT NULL AS rolled_back FROM _prisma_migrations WHERE migration_name = ANY($1) ORDER BY migration_name, started_at`,
        [[beforeLast, last]],
      );
      expect(rows.rows).toEqual([
        { migration_name: beforeLast, finished: true, rolled_back: false },
        { migration_name: last, finished: false, rolled_back: true },
        { migration_name: last, finished: true, rolled_back: false },
      ]);
      expect(await applyMigrations({ pg: { connectionString: url } })).toEqual([]);
    });
  });

  it("serializes instances under the migration lock, applies each migration once, and says what a waiting one waits for", async () => {
    await withDatabase("migrate_lock", async (url) => {
      const holder = new pg.Client({ connectionString: url, application_name: "another deploy" });
      await holder.connect();
      const { rows } = await holder.query<{ pid: number }>("SELECT pg_backend_pid() AS pid, pg_advisory_lock(72707369)");
      const said: string[] = [];
      const first = applyMigrations({ pg: { connectionString: url } }, { say: (l) => said.push(l) });
      const second = applyMigrations({ pg: { connectionString: url } });
      const told = await poll(
        () => said.join("\n"),
        (s) => s.includes(`held by process ${rows[0]!.pid} (another deploy`),
        30_000,
      );
      expect(told).toContain("the migrations table: waiting for another process's migrations (the migration lock)");
      await holder.end(); // its lock goes with its session
      const applied = [...(await first), ...(await second)].sort();
      expect(applied).toEqual(names);
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      const count = await c.query("SELECT count(*)::int AS n FROM _prisma_migrations");
      await c.end();
      expect(count.rows[0].n).toBe(names.length);
    });
  });
});

// D97: an installation that sent sms before their segments were counted in usage_counters keeps
// them in GET /usage after the upgrade: the migration sums each day's live sms into its counter
// (a canceled one and a test one left out, as the counters leave them out).
describe("the usage counters' segments", () => {
  it("are filled from the sms an installation sent before they were counted", async () => {
    const database = await freshDatabase("postgres", "migrate_segments");
    const url = database.env.DATABASE_URL!;
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      const names = readMigrations().migrationDirectories.map((d) => d.path);
      const added = "20261207143513_usage_segments";
      await applyMigrations({ pg: { connectionString: url } }, { through: names[names.indexOf(added) - 1]! });
      await c.query(`INSERT INTO workspaces (id, name) VALUES ('ws_s', 'S')`);
      await c.query(`INSERT INTO contacts (id, workspace_id, phone) VALUES ('ct_s', 'ws_s', '+5511999990000')`);
      const sms = (id: string, at: string, segments: number, mode = "live", status = "sent") =>
        c.query(
          `INSERT INTO messages (id, workspace_id, mode, channel, contact_id, status, content, sms, created_at)
           VALUES ($1, 'ws_s', $4::"KeyMode", 'sms', 'ct_s', $5::"MessageStatus", '{}', jsonb_build_object('encoding', 'GSM-7', 'segments', $3::int), $2)`,
          [id, at, segments, mode, status],
        );
      await sms("m1", "2026-12-01T10:00:00Z", 2);
      await sms("m2", "2026-12-01T23:59:00Z", 3);
      await sms("m3", "2026-12-01T12:00:00Z", 4, "live", "canceled");
      await sms("m4", "2026-12-01T12:00:00Z", 5, "test");
      await sms("m5", "2026-12-02T00:01:00Z", 1);
      await c.query(
        `INSERT INTO usage_counters (workspace_id, day, channel, mode, count, canceled)
         VALUES ('ws_s', '2026-12-01', 'sms', 'live', 2, 1), ('ws_s', '2026-12-02', 'sms', 'live', 1, 0), ('ws_s', '2026-12-01', 'sms', 'test', 1, 0)`,
      );
      expect(await applyMigrations({ pg: { connectionString: url } })).toEqual(names.filter((n) => n >= added));
      const { rows } = await c.query(`SELECT day, mode::text, count, segments FROM usage_counters ORDER BY day, mode`);
      expect(rows).toEqual([
        { day: "2026-12-01", mode: "live", count: 2, segments: 5 },
        { day: "2026-12-01", mode: "test", count: 1, segments: 0 },
        { day: "2026-12-02", mode: "live", count: 1, segments: 1 },
      ]);
    } finally {
      await c.end();
      await database.drop();
    }
  });
});
