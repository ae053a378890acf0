import { resolve } from "node:path";
import type { ParseArgsConfig } from "node:util";
import type { Database } from "../db/client.ts";

// What every `svc` command shares: its shape, flag parsing helpers, the failure it throws for
// bad usage, and the database it opens (operations.md "Operating the service").

export type Options = NonNullable<ParseArgsConfig["options"]>;
export type Values = Record<string, string | boolean | undefined>;

/** What a command prints: `json` with `--json` (one object on stdout), `text` otherwise. */
export type Output = { json: Record<string, unknown>; text: string };

export type Command = {
  /** The command words, e.g. `workspace create`. */
  name: string;
  summary: string;
  /** The synopsis after `svc `. */
  usage: string;
  /** One `[flag, explanation]` per option, for `--help`. */
  help: [string, string][];
  options: Options;
  /** The name under which the command's one positional argument (`svc trigger EVENT`) is passed in its values. */
  argument?: string;
  /** Service parameter names to the flags that carry them, for error messages. */
  flags?: Record<string, string>;
  run(values: Values): Promise<Output>;
};

/** Bad usage (unknown command or flag, missing or malformed value): exit status 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

export function requiredString(values: Values, flag: string): string {
  const value = values[flag];
  if (typeof value !== "string") throw new UsageError(`--${flag} is required.`);
  return value;
}

export function optionalString(values: Values, flag: string): string | undefined {
  const value = values[flag];
  return typeof value === "string" ? value : undefined;
}

export function oneOf<T extends string>(values: Values, flag: string, allowed: readonly T[]): T | undefined {
  const value = optionalString(values, flag);
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) {
    throw new UsageError(`--${flag} must be one of ${allowed.join(", ")} (got "${value}").`);
  }
  return value as T;
}

export function wholeNumber(values: Values, flag: string, min: number): number | undefined {
  const value = optionalString(values, flag);
  if (value === undefined) return undefined;
  const n = /^\d+$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min) {
    throw new UsageError(`--${flag} must be a whole number of at least ${min} (got "${value}").`);
  }
  return n;
}

/**
 * Opens the configured database (DATABASE_URL, or the embedded store under DATA_DIR, itself
 * or through the server that holds it), applies pending migrations, runs `fn` and closes the
 * database again. The database modules are loaded here, when a command runs, not when `svc`
 * starts (registry.ts).
 */
export async function withDatabase<T>(fn: (database: Database) => Promise<T>): Promise<T> {
  const { closeDb, db } = await import("../db/client.ts");
  let database: Database;
  try {
    database = await db();
  } catch (err) {
    await closeDb().catch(() => {});
    throw err;
  }
  try {
    if (!database.shared) await migrateIfPending(database); // a sharing server applied them (D53)
    const { checkSecret } = await import("../lib/secret-fingerprint.ts");
    await checkSecret(database);
    return await fn(database);
  } finally {
    await closeDb();
  }
}

/**
 * Applies pending migrations, if any. One query on `_prisma_migrations` tells: Prisma's
 * WebAssembly schema engine (5 MB to compile, half a second or more) is loaded only when a
 * migration of this build is not applied yet.
 */
async function migrateIfPending(database: Database): Promise<void> {
  const { pendingMigrations } = await import("../db/migrations.ts");
  if ((await pendingMigrations(database, resolve(process.env.SVC_ROOT ?? process.cwd()))).length === 0) return;
  const { applyMigrations } = await import("../db/apply-migrations.ts");
  await applyMigrations(database.migrationTarget);
}
