import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { lockOwner } from "../../server/db/store-lock.ts";
import { storeSocketPath } from "../../server/db/store-server.ts";

export type Engine = "postgres" | "pglite";

export const PG_ADMIN_URL = process.env.TEST_PG_URL ?? "postgresql://postgres@127.0.0.1:5432/test";

/** A fresh, empty database for one test run: a new PostgreSQL database or a new PGlite dir. */
export async function freshDatabase(
  engine: Engine,
  label: string,
): Promise<{ env: Record<string, string | undefined>; drop: () => Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), `svc-${label}-`));
  if (engine === "pglite") {
    return { env: { DATA_DIR: dataDir, DATABASE_URL: undefined }, drop: async () => rmSync(dataDir, { recursive: true, force: true }) };
  }
  const name = `svc_${label}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 6)}`.replace(/[^a-z0-9_]/g, "_");
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: url.toString(), DATA_DIR: dataDir },
    drop: async () => {
      const c = new pg.Client({ connectionString: PG_ADMIN_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
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
