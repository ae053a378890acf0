import { createHash } from "node:crypto";
import { closeSync, existsSync, fsyncSync, mkdirSync, mkdtempSync, openSync, readdirSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { PrismaPg } from "@prisma/adapter-pg";
import type { MigrationTarget } from "./apply-migrations.ts";
import pg from "pg";
import { PrismaClient } from "../generated/prisma/client.ts";
import { env } from "../lib/env.ts";
import { log } from "../lib/log.ts";
import { runtime } from "../lib/runtime.ts";
import { lockOwner, lockStore } from "./store-lock.ts";
import { STORE_SOCKET_PORT, storeSocketPath } from "./store-server.ts";
import { CONNECT_TIMEOUT_MS, REPLAN_MS, PRISMA_TRANSACTIONS } from "./waits.ts";

export type Engine = "postgres" | "pglite";

// Network errors, PostgreSQL's connection classes (08…, 57P01-03: shut down, starting up),
// too many connections (53300), and Prisma's own codes for an unreachable server.
const CONNECTION_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "08000",
  "08001",
  "08003",
  "08004",
  "08006",
  "57P01",
  "57P02",
  "57P03",
  "53300",
  "P1001",
  "P1002",
  "P1017",
  "P2024",
]);
const CONNECTION_MESSAGE =
  /Connection terminated|timeout exceeded when trying to connect|Unable to start a transaction in the given time|Can't reach database server|server closed the connection|Client has encountered a connection error|connection is closed|the database system is (starting up|shutting down)/i;

/**
 * Whether an error means the database could not be reached or dropped the connection (a
 * restart, an outage), as opposed to a fault of the statement. Looks through wrapped causes
 * (Prisma's driver adapter wraps the driver's error). The one place that tells: the REST edge
 * answers `503` for these, and the pipeline retries recording an outcome on them.
 */
export function isConnectionError(err: unknown): boolean {
  for (const e of causes(err)) {
    for (const code of codes(e)) if (CONNECTION_CODES.has(code)) return true;
    if (typeof e.message === "string" && CONNECTION_MESSAGE.test(e.message)) return true;
    if (e.kind === "DatabaseNotReachable" || e.kind === "ConnectionClosed" || e.kind === "SocketTimeout") return true;
  }
  return false;
}

/**
 * Whether the statement's transaction lost to another and was rolled back whole (a deadlock's
 * victim, 40P01, as Citus's distributed deadlock detection also chooses one; a serialization
 * failure, 40001): done again, it may succeed, and nothing of the first try was kept.
 */
export function isRolledBackByConflict(err: unknown): boolean {
  for (const e of causes(err)) for (const code of codes(e)) if (code === "40P01" || code === "40001") return true;
  return false;
}

/** An error and the causes it wraps (Prisma's driver adapter wraps the driver's error), outermost first. */
function* causes(err: unknown): Generator<Record<string, unknown>> {
  for (let e = err as Record<string, unknown> | null | undefined, depth = 0; e && typeof e === "object" && depth < 6; depth++) {
    yield e;
    e = (e.cause ?? (e.meta as Record<string, unknown> | undefined)?.driverAdapterError) as Record<string, unknown> | undefined;
  }
}

const codes = (e: Record<string, unknown>): string[] =>
  [e.code, e.originalCode, e.errorCode].filter((code): code is string => typeof code === "string");

/** The database could not be reached where the driver's own error was not at hand. */
export class DatabaseUnreachableError extends Error {
  readonly kind = "DatabaseNotReachable";
}

/**
 * Its name: each connection parses and plans a named statement once. But a statement that
 * takes its rows from a JSON array or an array parameter (the batched writes and look-ups)
 * stays unnamed, planned at each execution: the planner counts such a set as 100 rows
 * whatever it holds, so the plan a connection would keep is the one for the tables' size when
 * it was prepared. Prepared on a new database, that is a sequential scan and a hash join, and
 * each execution then read the whole table as it grew (what that cost POST /messages:
 * docs/architecture.md, "Database"); a new plan follows the table.
 */
const names = new Map<string, string | undefined>();
const ROWS_FROM_PARAMETER = /\b(jsonb?_to_recordset|jsonb?_populate_recordset|unnest)\s*\(|\bANY\s*\(\s*\$\d/i;
function statementName(text: string): string | undefined {
  if (names.has(text)) return names.get(text);
  const name = ROWS_FROM_PARAMETER.test(text) ? undefined : `svc_${createHash("sha1").update(text).digest("hex").slice(0, 16)}`;
  names.set(text, name);
  return name;
}

/**
 * The one handle services take for their statements (docs/architecture.md "Database"): a
 * parameterized statement on the driver, either the database's (`Database.query`: each
 * statement commits alone) or an open transaction's (what `Database.transaction` passes). A
 * helper that takes it runs the same inside a caller's transaction and outside one, on
 * PostgreSQL and on PGlite; a read inside a transaction must go through the transaction's
 * handle, since PGlite serves one transaction at a time.
 */
export type Handle = <T = Record<string, unknown>>(text: string, values?: unknown[]) => Promise<T[]>;

export type Database = {
  engine: Engine;
  /**
   * The embedded store, reached over the socket of the server that holds it (D53): that
   * server applied the migrations before serving it.
   */
  shared: boolean;
  /** Only on an embedded store this process holds: serve it to other local processes (D53). */
  serve?: () => Promise<void>;
  prisma: PrismaClient;
  /** Where `applyMigrations` applies: on PostgreSQL a connection of its own per run. */
  migrationTarget: MigrationTarget;
  /**
   * One parameterized statement straight to the driver, bypassing Prisma's client. Only for
   * the hot path that every API call runs (key check and rate limit), where the client's
   * per-query cost was a large share of the request (docs/architecture.md, "Database").
   */
  query: Handle;
  /**
   * A transaction on one driver connection: `fn`'s statements through `tx` commit together,
   * or none does. The only way a transaction is opened for statements written in SQL.
   */
  transaction<T>(fn: (tx: Handle) => Promise<T>): Promise<T>;
  close(): Promise<void>;
};

declare module "../lib/runtime.ts" {
  interface Runtime {
    /** The one database handle, opened on first use (PGlite allows one opener per directory). */
    database?: Promise<Database>;
  }
}

/**
 * The process's one database handle (server/lib/runtime.ts), opened on first use: the
 * dashboard's route handlers and the server share it, so the embedded store is opened once
 * (PGlite allows one opener per directory).
 */
export function db(): Promise<Database> {
  const shared = runtime();
  shared.database ??= open();
  return shared.database;
}

export async function closeDb(): Promise<void> {
  const shared = runtime();
  const pending = shared.database;
  shared.database = undefined;
  if (pending) await (await pending).close();
}

async function open(): Promise<Database> {
  const { databaseUrl, dataDir } = env();
  if (databaseUrl) return pgDatabase({ connectionString: databaseUrl }, env().databasePoolSize, true);
  // D53: a server holding the embedded store serves it on a socket in DATA_DIR; reach it
  // there, through the same driver as PostgreSQL, instead of opening it a second time.
  if (storeServed(dataDir)) {
    // Unnamed statements only: every client shares PGlite's one session, where a named
    // statement of one connection would collide with the same name prepared by another.
    const database = await pgDatabase({ host: dataDir, port: STORE_SOCKET_PORT, user: "postgres", database: "postgres" }, 4, false);
    return { ...database, engine: "pglite", shared: true };
  }
  const dir = join(dataDir, "pglite");
  mkdirSync(dataDir, { recursive: true });
  const releaseLock = lockStore(dataDir);
  try {
    // Loaded only for the embedded store: PGlite would weigh on a PostgreSQL server's memory
    // (docs/architecture.md, "One process, two front doors").
    const { PGlite } = await import("@electric-sql/pglite");
    const { pgliteDatabase } = await import("./pglite-database.ts");
    if (!existsSync(dir)) await createStore((path) => PGlite.create(path), dataDir, dir);
    const client = await PGlite.create(dir);
    await client.exec(PLANNER_SETTINGS);
    return pgliteDatabase(client, releaseLock, dataDir);
  } catch (err) {
    releaseLock();
    throw err;
  }
}

const CREATING = ".pglite-creating-";

/**
 * The embedded store's first creation, atomic: PGlite initializes it in a directory beside
 * its place, which is then renamed into place. A kill meanwhile leaves no store (the next start
 * removes the leftover and creates it again), never a half-written one that no start opens.
 * Called under the store lock.
 */
async function createStore(create: (path: string) => Promise<{ close(): Promise<void> }>, dataDir: string, dir: string) {
  for (const name of readdirSync(dataDir)) {
    if (name.startsWith(CREATING)) rmSync(join(dataDir, name), { recursive: true, force: true });
  }
  const aside = mkdtempSync(join(dataDir, CREATING));
  await (await create(aside)).close();
  renameSync(aside, dir);
  const handle = openSync(dataDir, "r"); // the rename itself durable, not only ordered
  try {
    fsyncSync(handle);
  } finally {
    closeSync(handle);
  }
}

/**
 * Each session's planner costs: a random page read costs 1.1 sequential ones instead of 4, as
 * for data in memory or on SSD, where the service's tables live. The default models spinning
 * disks: to it, the 50 index probes of a batched write (a claim's status changes, a tick's
 * completed keys) cost more than reading a table of 10,000 rows whole, so each batch read it
 * whole until the table grew past that (docs/architecture.md, "Database").
 */
const PLANNER_SETTINGS = "SET random_page_cost = 1.1";

/** A connection that applies `PLANNER_SETTINGS` before the pool hands it out (pg-pool connects with a callback). */
class PlannedClient extends pg.Client {
  override connect(): Promise<pg.Client>;
  override connect(callback: (err: Error | null, client?: pg.Client) => void): void;
  override connect(callback?: (err: Error | null, client?: pg.Client) => void): Promise<pg.Client> | void {
    const ready = super.connect().then(async () => {
      await this.query(PLANNER_SETTINGS);
      return this as pg.Client;
    });
    if (!callback) return ready;
    ready.then(
      (client) => callback(null, client),
      (err: Error) => callback(err),
    );
  }
}

/** The embedded store is held by a live process that serves it (D53). */
function storeServed(dataDir: string): boolean {
  return existsSync(storeSocketPath(dataDir)) && lockOwner(dataDir) !== null;
}

/** A Database over PostgreSQL's protocol: a server, or the embedded store's socket (`named: false`). */
export async function pgDatabase(connection: pg.PoolConfig, max: number, named: boolean): Promise<Database> {
  // A connection that cannot be had within 10 s fails (a request answers 503 instead of
  // hanging); an idle connection that the database drops (a restart) is logged and replaced.
  const pool = new pg.Pool({ ...connection, max, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, Client: PlannedClient });
  // The error only: pg-pool hangs the whole client on it (its settings and every prepared
  // statement's text), which made each such line about 5 KB.
  pool.on("error", (err) =>
    log().warn(
      { err: { type: err.name, message: err.message, code: (err as { code?: string }).code } },
      "an idle database connection failed; it is replaced on next use",
    ),
  );
  // Each connection's plans are made again every REPLAN_MS, at its first checkout after that:
  // queued before the borrower's first statement, outside any transaction.
  const planned = new WeakMap<pg.PoolClient, number>();
  pool.on("acquire", (client) => {
    const now = Date.now();
    const since = planned.get(client);
    if (since === undefined) planned.set(client, now);
    else if (now - since >= REPLAN_MS) {
      planned.set(client, now);
      client.query("DISCARD PLANS").catch(() => {}); // a broken connection fails the borrower's own statement too
    }
  });
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool), transactionOptions: PRISMA_TRANSACTIONS });
  // Named where it helps (`statementName`); the texts are constants.
  const statement = (text: string, values: unknown[]) => {
    const name = named ? statementName(text) : undefined;
    return name ? { name, text, values } : { text, values };
  };
  return {
    engine: "postgres",
    shared: false,
    prisma,
    migrationTarget: { pg: connection },
    query: async <T>(text: string, values: unknown[] = []) => (await pool.query(statement(text, values))).rows as T[],
    async transaction<T>(fn: (tx: Handle) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        await client.query("BEGIN");
        const result = await fn(
          async <R>(text: string, values: unknown[] = []) => (await client.query(statement(text, values))).rows as R[],
        );
        await client.query("COMMIT");
        return result;
      } catch (err) {
        // A dropped connection is discarded, not returned to the pool.
        if (isConnectionError(err)) broken = err as Error;
        else await client.query("ROLLBACK").catch(() => {});
        throw err;
      } finally {
        client.release(broken);
      }
    },
    async close() {
      await prisma.$disconnect();
      await pool.end();
    },
  };
}
