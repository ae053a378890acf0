import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pgDatabase, type Database } from "../../server/db/client.ts";
import { pgliteDatabase } from "../../server/db/pglite-database.ts";
import { freshDatabase, type Engine } from "./database.ts";

/**
 * A migrated fresh database opened in this process as the server opens it (a `Database`: a
 * pool of 2 on PostgreSQL, the store itself on PGlite), for tests of services; `drop` closes
 * and removes it.
 */
export async function openFreshDatabase(engine: Engine, label: string): Promise<{ database: Database; drop: () => Promise<void> }> {
  const fresh = await freshDatabase(engine, label, { migrated: true });
  const database =
    engine === "pglite"
      ? pgliteDatabase(await PGlite.create(join(fresh.env.DATA_DIR!, "pglite")))
      : await pgDatabase({ connectionString: fresh.env.DATABASE_URL }, 2, true);
  return {
    database,
    drop: async () => {
      await database.close();
      await fresh.drop();
    },
  };
}
