import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { Database } from "./client.ts";

/** The migrations of this build: the directories of prisma/migrations holding a migration.sql. */
export function migrationNames(root: string): string[] {
  const dir = join(root, "prisma", "migrations");
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(dir, d.name, "migration.sql")))
    .map((d) => d.name);
}

/** The names of the migrations the database has applied, as `prisma migrate deploy` records them. */
export async function appliedMigrations(database: Database): Promise<string[]> {
  const rows = await database.query<{ name: string }>(
    `SELECT migration_name AS name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
  );
  return rows.map((r) => r.name);
}

/**
 * The migrations of this build that the database has not applied; all of them when it has
 * none yet (no `_prisma_migrations`). A failed or rolled-back migration counts as pending, so
 * the migrator runs and reports it.
 */
export async function pendingMigrations(database: Database, root: string): Promise<string[]> {
  const expected = migrationNames(root);
  const applied = new Set(await appliedMigrations(database).catch(() => []));
  return expected.filter((name) => !applied.has(name));
}
