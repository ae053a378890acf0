import { PGlite } from "@electric-sql/pglite";
import type { Database } from "../../server/db/client.ts";
import { pgliteDatabase } from "../../server/db/pglite-database.ts";
import { applyMigrations } from "../../server/db/migrate.ts";

/** A fresh in-memory PGlite with every migration applied, shaped like the server's `Database`. */
export async function memoryDatabase(): Promise<Database> {
  const database = pgliteDatabase(await PGlite.create());
  await applyMigrations(database.migrationTarget);
  return database;
}
