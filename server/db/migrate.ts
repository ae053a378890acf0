import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { bindMigrationAwareSqlAdapterFactory } from "@prisma/driver-adapter-utils";
import type { SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import * as glue from "@prisma/schema-engine-wasm/schema_engine_bg";
import type { SchemaEngine } from "@prisma/schema-engine-wasm";
import { applyMigrations, migrationsDir, readMigrations, root, schemaPath } from "./apply-migrations.ts";

export { applyMigrations, readMigrations };

// Creating migrations through Prisma's WebAssembly schema engine, so no native engine binary
// is needed (ARCHITECTURE.md "Databases"). Applying them needs no engine: apply-migrations.ts.

let wasmReady = false;

function loadWasm(): void {
  if (wasmReady) return;
  const require = createRequire(import.meta.url);
  const pkgDir = dirname(require.resolve("@prisma/schema-engine-wasm/schema_engine_bg"));
  const wasmModule = new WebAssembly.Module(readFileSync(join(pkgDir, "schema_engine_bg.wasm")));
  const instance = new WebAssembly.Instance(wasmModule, {
    "./schema_engine_bg.js": glue as unknown as WebAssembly.ModuleImports,
  });
  glue.__wbg_set_wasm(instance.exports);
  (instance.exports.__wbindgen_start as () => void)();
  wasmReady = true;
}

type Engine = { engine: SchemaEngine; free: () => Promise<void> };

/**
 * The engine over the given adapter factory. `free` also disposes the connections the engine
 * opened: it takes a session-level advisory lock on PostgreSQL and would otherwise keep it
 * (and block every other process's migrations) for as long as the connection lives.
 */
async function engineFor(factory: SqlMigrationAwareDriverAdapterFactory): Promise<Engine> {
  loadWasm();
  const opened: { dispose(): Promise<void> }[] = [];
  const tracked: SqlMigrationAwareDriverAdapterFactory = {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => {
      const adapter = wholeScripts(await factory.connect());
      opened.push(adapter);
      return adapter;
    },
    connectToShadowDb: async () => {
      const adapter = await factory.connectToShadowDb();
      opened.push(adapter);
      return adapter;
    },
  };
  const schema = readFileSync(schemaPath, "utf8");
  const engine = await glue.SchemaEngine.new(
    { datamodels: [[schemaPath, schema]] },
    () => {},
    bindMigrationAwareSqlAdapterFactory(tracked),
  );
  return {
    engine,
    free: async () => {
      engine.free();
      await Promise.all(opened.map((a) => a.dispose()));
    },
  };
}

type ScriptRunner = { executeScript(script: string): Promise<void> };
type PgInternals = { client: { query(text: string): Promise<unknown> }; onError(error: unknown): never };

/**
 * @prisma/adapter-pg runs a migration script by splitting it on every `;`, which breaks
 * PL/pgSQL bodies (our functions and triggers). PostgreSQL's simple query protocol runs a
 * whole multi-statement script itself, as one implicit transaction; PGlite's adapter already
 * does the equivalent.
 */
function wholeScripts<T extends ScriptRunner>(adapter: T): T {
  if (!("adapterName" in adapter) || adapter.adapterName !== "@prisma/adapter-pg") return adapter;
  const pg = adapter as unknown as PgInternals;
  adapter.executeScript = async (script: string) => {
    try {
      await pg.client.query(script);
    } catch (error) {
      pg.onError(error);
    }
  };
  return adapter;
}

/**
 * The SQL that would bring the committed migration history to `schema.prisma`: the history
 * is replayed into a throw-away in-memory PGlite and diffed against the schema. Empty when
 * they agree (the drift test asserts that).
 */
export async function pendingSchemaChange(): Promise<string> {
  // Loaded here only: applying migrations (the server's child, the CLI) needs neither.
  const [{ PGlite }, { PrismaPGlite }] = await Promise.all([import("@electric-sql/pglite"), import("pglite-prisma-adapter")]);
  const scratch = await PGlite.create();
  const adapter = new PrismaPGlite(scratch) as unknown as SqlMigrationAwareDriverAdapterFactory;
  try {
    await applyMigrations({ pglite: scratch });
    const { engine, free } = await engineFor(adapter);
    try {
      const files = [{ path: schemaPath, content: readFileSync(schemaPath, "utf8") }];
      const diff = await engine.diff({
        from: { tag: "schemaDatasource", files, configDir: root },
        to: { tag: "schemaDatamodel", files },
        script: true,
        exitCode: null,
        filters: { externalTables: [], externalEnums: [] },
      });
      const sql = diff.stdout ?? "";
      return /^\s*(--[^\n]*\n?\s*)*$/.test(sql) ? "" : sql;
    } finally {
      await free();
    }
  } finally {
    await scratch.close();
  }
}

/** Writes prisma/migrations/<timestamp>_<name>/migration.sql; returns its path or null. */
export async function createMigration(name: string): Promise<string | null> {
  const sql = await pendingSchemaChange();
  if (!sql) return null;
  const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
  const dir = join(migrationsDir, `${stamp}_${name.replace(/[^a-z0-9_]+/gi, "_").toLowerCase()}`);
  mkdirSync(dir, { recursive: true });
  const lockPath = join(migrationsDir, "migration_lock.toml");
  if (!existsSync(lockPath)) {
    writeFileSync(
      lockPath,
      '# Please do not edit this file manually\n# It should be added in your version-control system (e.g., Git)\nprovider = "postgresql"\n',
    );
  }
  writeFileSync(join(dir, "migration.sql"), sql);
  return join(dir, "migration.sql");
}
