import { defineConfig } from "prisma/config";

// Used by `prisma generate` only. Migrations go through server/db/migrate.ts, which runs
// Prisma's WebAssembly schema engine against either database (see docs/architecture.md).
export default defineConfig({
  schema: "prisma/schema.prisma",
});
