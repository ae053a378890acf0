// npm run db:migrate: applies pending migrations to DATABASE_URL or the embedded store.
import { closeDb, db } from "../server/db/client.ts";
import { applyMigrations } from "../server/db/apply-migrations.ts";

const database = await db();
// An embedded store shared by a running server (D53) was migrated by that server.
const applied = database.shared ? [] : await applyMigrations(database.migrationTarget);
if (process.argv.includes("--json")) console.log(JSON.stringify({ applied }));
else console.log(applied.length ? `applied ${applied.join(", ")}` : "database is up to date");
await closeDb();
// The WebAssembly schema engine leaves a timer running for about 10 s; nothing is pending.
process.exit(0);
