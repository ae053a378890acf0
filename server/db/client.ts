import { createHash } from "node:crypto";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { PrismaPg } from "@prisma/adapter-pg";
import type { SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import pg from "pg";
import { PrismaClient } from "../generated/prisma/client.ts";
import { env } from "../lib/env.ts";
import { lockStore } from "./store-lock.ts";

export type Engine = "postgres" | "pglite";

const names = new Map<string, string>();
function statementName(text: string): string {
  let name = names.get(text);
  if (!name) names.set(text, (name = `svc_${createHash("sha1").update(text).digest("hex").slice(0, 16)}`));
  return name;
}

/** A parameterized statement on the driver: the database's, or a transaction's. */
export type Sql = <T = Record<string, unknown>>(text: string, values?: unknown[]) => Promise<T[]>;

export type Database = {
  engine: Engine;
  prisma: PrismaClient;
  /**
   * The driver adapter factory for the migration engine. On PostgreSQL it opens a pool of
   * its own per migration run, so the engine's session-level advisory lock ends with it.
   */
  adapter: SqlMigrationAwareDriverAdapterFactory;
  /**
   * One parameterized statement straight to the driver, bypassing Prisma's client. Only for
   * the hot path that every API call runs (key check and rate limit): measured there, the
   * client's per-query cost was a third of the request (docs/api-platform.md).
   */
  query: Sql;
  /** A transaction on one driver connection, for hot paths written in SQL (the pipeline's). */
  transaction<T>(fn: (sql: Sql) => Promise<T>): Promise<T>;
  close(): Promise<void>;
};

// One database handle per process. Next's bundled route handlers and the server's own
// modules are two module graphs in one process; they share the handle through globalThis so
// the embedded store is opened once (PGlite allows one opener per directory).
const slot = globalThis as typeof globalThis & { __svcDb?: Promise<Database> };

export function db(): Promise<Database> {
  slot.__svcDb ??= open();
  return slot.__svcDb;
}

export async function closeDb(): Promise<void> {
  const pending = slot.__svcDb;
  slot.__svcDb = undefined;
  if (pending) await (await pending).close();
}

async function open(): Promise<Database> {
  const { databaseUrl, dataDir } = env();
  if (databaseUrl) {
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 20 });
    const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
    return {
      engine: "postgres",
      prisma,
      adapter: new PrismaPg({ connectionString: databaseUrl, max: 1 }),
      // Named, so each connection parses and plans a statement once (the texts are constants).
      query: async <T>(text: string, values: unknown[] = []) => (await pool.query({ name: statementName(text), text, values })).rows as T[],
      async transaction<T>(fn: (sql: Sql) => Promise<T>): Promise<T> {
        const client = await pool.connect();
        try {
          await client.query("BEGIN");
          const result = await fn(
            async <R>(text: string, values: unknown[] = []) =>
              (await client.query({ name: statementName(text), text, values })).rows as R[],
          );
          await client.query("COMMIT");
          return result;
        } catch (err) {
          await client.query("ROLLBACK").catch(() => {});
          throw err;
        } finally {
          client.release();
        }
      },
      async close() {
        await prisma.$disconnect();
        await pool.end();
      },
    };
  }
  const dir = join(dataDir, "pglite");
  mkdirSync(dir, { recursive: true });
  const releaseLock = lockStore(dataDir);
  // Loaded only for the embedded store: PGlite alone is about 45 MB of a PostgreSQL server's memory.
  const { PGlite } = await import("@electric-sql/pglite");
  const { pgliteDatabase } = await import("./pglite-database.ts");
  return pgliteDatabase(await PGlite.create(dir), releaseLock);
}
