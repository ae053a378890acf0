import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { applyMigrations, readMigrations } from "../../server/db/migrate.ts";
import { lockOwner } from "../../server/db/store-lock.ts";
import type { Fixtures } from "./fixtures.ts";
import { ROOT, SHORT_PROCESS_FLAGS } from "./server.ts";
import { storeSocketPath } from "../../server/db/store-server.ts";
import { citusPorts, createCitusDatabase } from "./citus.ts";

export type Engine = "postgres" | "pglite";

export const PG_ADMIN_URL = process.env.TEST_PG_URL ?? "postgresql://postgres@127.0.0.1:5432/test";

/**
 * A fresh database for one test run: a new PostgreSQL database or a new PGlite dir, empty, or
 * with `migrated: true` a copy of a template migrated once per migration history. Migrating
 * takes from seconds (PostgreSQL) to half a minute (PGlite) on a busy machine; the tests that
 * are about a first start or about migrating take an empty one.
 */
export async function freshDatabase(
  engine: Engine,
  label: string,
  opts: { migrated?: boolean; citus?: boolean } = {},
): Promise<{ env: Record<string, string | undefined>; drop: () => Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), `svc-${label}-`));
  if (engine === "pglite") {
    if (opts.migrated) cpSync(await pgliteTemplate(), join(dataDir, "pglite"), { recursive: true });
    return { env: { DATA_DIR: dataDir, DATABASE_URL: undefined }, drop: async () => rmSync(dataDir, { recursive: true, force: true }) };
  }
  const name = `svc_${label}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 6)}`.replace(/[^a-z0-9_]/g, "_");
  // Only the api-citus project's databases are made on the cluster (its workers have SVC_CITUS=1;
  // its global setup says so): the cluster's ports are in every process's environment of the run.
  const citus = (opts.citus ?? process.env.SVC_CITUS === "1") ? citusPorts() : null;
  if (citus) {
    // api-citus (D87): a database on every node of the test cluster; a template copied on the
    // coordinator alone would leave the workers' shards behind, so a migrated one is migrated anew.
    const made = await createCitusDatabase(citus, name);
    if (opts.migrated) await applyMigrations({ pg: { connectionString: made.url } });
    return {
      env: { DATABASE_URL: made.url, DATA_DIR: dataDir },
      drop: async () => {
        await made.drop();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const template = opts.migrated ? await pgTemplate() : null;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ""}`);
  await admin.end();
  const url = pgUrl(name);
  return {
    env: { DATABASE_URL: url, DATA_DIR: dataDir },
    drop: async () => {
      const c = new pg.Client({ connectionString: PG_ADMIN_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function pgUrl(name: string): string {
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Names the migration history: a new or changed migration makes new templates. */
function migrationsHash(): string {
  const hash = createHash("sha256");
  const { baseDir, migrationDirectories } = readMigrations();
  for (const { path } of migrationDirectories) hash.update(path).update(readFileSync(join(baseDir, path, "migration.sql")));
  return hash.digest("hex").slice(0, 12);
}

/** The migrated PostgreSQL template of this history, built once (under an advisory lock) and kept. */
async function pgTemplate(): Promise<string> {
  const name = `svc_template_${migrationsHash()}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`SELECT pg_advisory_lock(hashtext('svc_test_template'))`);
    if ((await admin.query(`SELECT 1 FROM pg_database WHERE datname = $1`, [name])).rowCount === 0) {
      const building = `${name}_building`;
      await admin.query(`DROP DATABASE IF EXISTS "${building}" WITH (FORCE)`);
      await admin.query(`CREATE DATABASE "${building}"`);
      await applyMigrations({ pg: { connectionString: pgUrl(building) } });
      await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1`, [building]);
      await admin.query(`ALTER DATABASE "${building}" RENAME TO "${name}"`);
    }
  } finally {
    await admin.query(`SELECT pg_advisory_unlock(hashtext('svc_test_template'))`).catch(() => {});
    await admin.end();
  }
  return name;
}

/** The migrated PGlite store of this history, built once and published by an atomic rename. */
async function pgliteTemplate(): Promise<string> {
  const dir = join(tmpdir(), `svc-pglite-template-${migrationsHash()}`);
  if (!existsSync(dir)) {
    const building = mkdtempSync(join(tmpdir(), "svc-pglite-template-building-"));
    const { PGlite } = await import("@electric-sql/pglite");
    const client = await PGlite.create(join(building, "pglite"));
    await applyMigrations({ pglite: client });
    await client.close();
    try {
      renameSync(building, dir);
    } catch {
      rmSync(building, { recursive: true, force: true }); // another process published the same template first
    }
  }
  return join(dir, "pglite");
}

/**
 * One query on a test database from outside the server: PostgreSQL through `pg`; the embedded
 * store through the socket of the server holding it (D53), or through PGlite when none does.
 */
export async function queryDatabase(
  env: Record<string, string | undefined>,
  sql: string,
  params: unknown[] = [],
): Promise<Record<string, unknown>[]> {
  const socket = env.DATA_DIR && existsSync(storeSocketPath(env.DATA_DIR)) && lockOwner(env.DATA_DIR) !== null;
  if (env.DATABASE_URL || socket) {
    const client = new pg.Client(
      env.DATABASE_URL
        ? { connectionString: env.DATABASE_URL }
        : { host: env.DATA_DIR, port: 5432, user: "postgres", database: "postgres" },
    );
    await client.connect();
    try {
      return (await client.query(sql, params)).rows;
    } finally {
      await client.end();
    }
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const client = await PGlite.create(join(env.DATA_DIR!, "pglite"));
  try {
    return (await client.query<Record<string, unknown>>(sql, params)).rows;
  } finally {
    await client.close();
  }
}

/**
 * Seeds the fixture workspaces of fixtures.ts into the database `env` names (a child process, as
 * an operator would; a short one, so with SHORT_PROCESS_FLAGS, as `svc` runs).
 */
export function seedFixtures(env: Record<string, string | undefined>): Fixtures {
  const out = execFileSync(process.execPath, [...SHORT_PROCESS_FLAGS, "--import", "tsx", "e2e/support/seed.ts"], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: "warn", ...env },
    encoding: "utf8",
  });
  return JSON.parse(out) as Fixtures;
}
