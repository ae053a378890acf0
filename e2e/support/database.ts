import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";

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
