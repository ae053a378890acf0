// npm run db:migrate:new -- <name>: writes the SQL that brings the migration history to
// prisma/schema.prisma as a new migration (server/db/migrate.ts).
import { createMigration } from "../server/db/migrate.ts";

const name = process.argv[2];
if (!name) {
  console.error("usage: npm run db:migrate:new -- <name>");
  process.exit(2);
}
const file = await createMigration(name);
console.log(file ? `created ${file}` : "schema.prisma matches the migrations: nothing to create");
