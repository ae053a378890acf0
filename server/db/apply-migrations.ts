import { createHash, randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { postgreSplitterOptions, splitQuery } from "dbgate-query-splitter";
import type { MigrationList } from "@prisma/schema-engine-wasm";
import pg from "pg";

// Applying the committed migrations (prisma/migrations, Prisma's own format) without Prisma's
// schema engine: each migration's script and its `_prisma_migrations` row commit in one
// transaction, which the engine does not do (it records a migration as started, runs it, then
// records it finished, so a kill between those left P3009 on a database the next start could
// not open). The table is kept exactly as `prisma migrate deploy` keeps it.

export const root = resolve(process.env.SVC_ROOT ?? process.cwd());
export const schemaPath = join(root, "prisma", "schema.prisma");
export const migrationsDir = join(root, "prisma", "migrations");

export function readMigrations(): MigrationList {
  const dirs = existsSync(migrationsDir)
    ? readdirSync(migrationsDir, { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => d.name)
        .sort()
    : [];
  const lockPath = join(migrationsDir, "migration_lock.toml");
  return {
    baseDir: migrationsDir,
    lockfile: {
      path: "migration_lock.toml",
      content: existsSync(lockPath) ? readFileSync(lockPath, "utf8") : null,
    },
    shadowDbInitScript: "",
    migrationDirectories: dirs.map((name) => ({
      path: name,
      migrationFile: {
        path: "migration.sql",
        content: { tag: "ok", value: readFileSync(join(migrationsDir, name, "migration.sql"), "utf8") },
      },
    })),
  };
}

/**
 * Where migrations are applied: a PostgreSQL server (a connection of its own, opened for the
 * run) or an open PGlite.
 */
export type MigrationTarget = { pg: pg.ClientConfig } | { pglite: PGlite };

/**
 * What a start says while migrating: one line each (`say`), and each migration applied.
 * `through`: apply the migrations up to this one only (an older release's database, in tests).
 */
export type MigrationReport = { say?: (line: string) => void; applied?: (name: string) => void; through?: string };

/**
 * Prisma Migrate's own advisory lock key: `prisma migrate deploy` run by hand and every
 * instance's start exclude one another. Taken per migration, for its transaction only (no
 * session state, so it holds through a transaction-pooling proxy and on Citus's coordinator).
 */
export const MIGRATION_LOCK = 72707369;

type Session = {
  query<T = Record<string, unknown>>(text: string, values?: unknown[]): Promise<T[]>;
  /** A whole multi-statement script (the simple query protocol), inside the open transaction. */
  script(sql: string): Promise<void>;
  /** The server process this session talks to, for describing what it waits on; null on PGlite. */
  pid: number | null;
  describeWaits: ((pid: number) => Promise<string | null>) | null;
  close(): Promise<void>;
};

async function openSession(target: MigrationTarget): Promise<Session> {
  if ("pglite" in target) {
    const client = target.pglite;
    return {
      query: async <T>(text: string, values: unknown[] = []) => (await client.query<T>(text, values)).rows,
      script: async (sql) => void (await client.exec(sql)),
      pid: null,
      describeWaits: null,
      close: async () => {},
    };
  }
  const config = { ...target.pg, application_name: "svc migrations" };
  const client = new pg.Client(config);
  await client.connect();
  // A migrator killed while its statement waits on a lock leaves its server process behind;
  // this makes that process notice the lost client and roll back within seconds, instead of
  // when the lock frees (PostgreSQL 14+; older servers answer an unknown setting, ignored).
  await client.query("SET client_connection_check_interval = '2s'").catch(() => {});
  const [{ pid }] = (await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows as [{ pid: number }];
  return {
    query: async <T>(text: string, values: unknown[] = []) => (await client.query(text, values)).rows as T[],
    // One statement at a time: Citus sends a DDL statement on to the workers as the text it came
    // in, and a worker refuses several commands in one (D87).
    script: async (sql) => {
      for (const statement of splitQuery(sql, postgreSplitterOptions)) await client.query(statement as string);
    },
    pid,
    describeWaits: async (waiting) => {
      const other = new pg.Client(config);
      try {
        await other.connect();
        const rows = (await other.query<Holder>(HOLDERS, [waiting])).rows;
        return rows.length ? rows.map(describeHolder).join("; ") : null;
      } finally {
        await other.end().catch(() => {});
      }
    },
    close: () => client.end(),
  };
}

type Holder = { pid: number; application_name: string; client: string | null; state: string | null; seconds: number; query: string };

/** The sessions that block `$1` (a migrator waiting on a table its migration alters, or on the migration lock). */
const HOLDERS = `
  SELECT a.pid, a.application_name, a.client_addr::text AS client, a.state,
         round(extract(epoch FROM now() - coalesce(a.xact_start, a.query_start)))::int AS seconds, left(a.query, 80) AS query
  FROM pg_stat_activity a WHERE a.pid = ANY(pg_blocking_pids($1)) ORDER BY a.pid`;

function describeHolder(h: Holder): string {
  const who = `process ${h.pid}${h.application_name ? ` (${h.application_name}${h.client ? ` from ${h.client}` : ""})` : ""}`;
  return `${who}, ${h.state ?? "busy"} for ${h.seconds} s: ${h.query.replace(/\s+/g, " ").trim()}`;
}

const BOOKKEEPING = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

type Row = { id: string; finished_at: Date | null; rolled_back_at: Date | null };

/**
 * What an error of re-running an interrupted migration says: its objects exist already, so
 * the interrupted run had committed (a migration script commits whole or not at all).
 * duplicate_column, duplicate_object, duplicate_table, duplicate_function, duplicate_schema.
 */
const ALREADY_THERE = new Set(["42701", "42710", "42P07", "42723", "42P06"]);

/**
 * Applies every pending migration of prisma/migrations; returns the names applied (none on a
 * second call). Each migration runs in one transaction with its `_prisma_migrations` row (the
 * format `prisma migrate deploy` writes, so Prisma's tooling agrees), under Prisma's migration
 * advisory lock: a kill at any moment leaves it either applied and recorded or neither, and
 * instances starting together apply each migration once. A migration an older release left
 * started but unfinished (a kill, P3009) is retried or, when it had taken effect, recorded:
 * one line through `say` either way (docs/deploy.md, "Upgrading").
 */
export async function applyMigrations(target: MigrationTarget, report: MigrationReport = {}): Promise<string[]> {
  const say = report.say ?? (() => {});
  const session = await openSession(target);
  const applied: string[] = [];
  try {
    await inTransaction(session, say, "the migrations table", async () => void (await session.query(BOOKKEEPING)));
    for (const { path: name, migrationFile } of readMigrations().migrationDirectories) {
      if (report.through !== undefined && name > report.through) break;
      const sql = (migrationFile.content as { value: string }).value;
      const rows = await session.query<Row>(`SELECT id, finished_at, rolled_back_at FROM "_prisma_migrations" WHERE migration_name = $1`, [
        name,
      ]);
      if (rows.some((r) => r.finished_at && !r.rolled_back_at)) continue;
      const done = await inTransaction(session, say, name, async () => {
        // Read again under the lock: another instance may have applied it meanwhile.
        const now = await session.query<Row>(
          `SELECT id, finished_at, rolled_back_at FROM "_prisma_migrations" WHERE migration_name = $1 `,
          [name],
        );
        if (now.some((r) => r.finished_at && !r.rolled_back_at)) return false;
        const interrupted = now.find((r) => !r.finished_at && !r.rolled_back_at);
        if (interrupted) return resume(session, name, sql, interrupted.id, say);
        await session.script(sql);
        await record(session, name, sql);
        return true;
      });
      if (done) {
        applied.push(name);
        report.applied?.(name);
      }
    }
    return applied;
  } finally {
    await session.close();
  }
}

/**
 * A migration an older release started and never finished: its script committed whole or not
 * at all, so running it again either succeeds (it had not taken effect: the old row is marked
 * rolled back and a finished one recorded, as `prisma migrate resolve --rolled-back` and a
 * deploy would) or finds its objects already there (it had: the old row is marked finished).
 * A migration that only changes data must therefore be safe to run twice (a WHERE that skips
 * rows it already changed), as ours are.
 */
async function resume(session: Session, name: string, sql: string, id: string, say: (line: string) => void): Promise<boolean> {
  await session.query("SAVEPOINT retry");
  try {
    await session.script(sql);
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (!code || !ALREADY_THERE.has(code)) throw err;
    await session.query("ROLLBACK TO SAVEPOINT retry");
    await session.query(
      `UPDATE "_prisma_migrations" SET finished_at = now(), logs = NULL, applied_steps_count = 1, checksum = $2 WHERE id = $1`,
      [id, checksum(sql)],
    );
    say(`migration ${name} had been interrupted after it took effect; recorded it as applied`);
    return true;
  }
  await session.query(`UPDATE "_prisma_migrations" SET rolled_back_at = now() WHERE id = $1`, [id]);
  await record(session, name, sql);
  say(`migration ${name} had been interrupted before it took effect; applied it again`);
  return true;
}

async function record(session: Session, name: string, sql: string): Promise<void> {
  await session.query(
    `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, logs, rolled_back_at, started_at, applied_steps_count)
     VALUES ($1, $2, now(), $3, NULL, NULL, now(), 1)`,
    [randomUUID(), checksum(sql), name],
  );
}

/** Prisma's checksum of a migration: the SHA-256 of its script, in hex. */
function checksum(sql: string): string {
  return createHash("sha256").update(sql).digest("hex");
}

/**
 * `fn` in one transaction holding the migration lock. When another process holds it (or, on
 * PostgreSQL, a statement waits longer than a few seconds for a lock another session holds),
 * `say` names what it waits for, once per holder.
 */
async function inTransaction<T>(session: Session, say: (line: string) => void, what: string, fn: () => Promise<T>): Promise<T> {
  await session.query("BEGIN");
  let watch: NodeJS.Timeout | undefined;
  try {
    const [{ got }] = (await session.query<{ got: boolean }>("SELECT pg_try_advisory_xact_lock($1) AS got", [MIGRATION_LOCK])) as [
      { got: boolean },
    ];
    const told = new Set<string>();
    const tell = async () => {
      const holders = session.pid === null ? null : await session.describeWaits?.(session.pid).catch(() => null);
      if (holders && !told.has(holders)) {
        told.add(holders);
        say(`${what}: waiting for a lock held by ${holders}`);
      }
    };
    if (!got) {
      say(`${what}: waiting for another process's migrations (the migration lock)`);
      const waiting = session.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
      const poll = setInterval(() => void tell(), 1000);
      try {
        await waiting;
      } finally {
        clearInterval(poll);
      }
    }
    if (session.pid !== null) watch = setInterval(() => void tell(), 3000);
    const result = await fn();
    clearInterval(watch);
    await session.query("COMMIT");
    return result;
  } catch (err) {
    clearInterval(watch);
    await session.query("ROLLBACK").catch(() => {});
    throw err;
  }
}
