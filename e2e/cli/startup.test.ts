import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { bundled } from "../../scripts/lib/bundle.mjs";
import { freshDatabase } from "../support/database.ts";
import { ROOT } from "../support/server.ts";

// What `svc` loads to answer (docs/architecture.md "Operator CLI"): the help loads no package,
// a command applies pending migrations without Prisma's schema engine (server/db/apply-migrations.ts:
// each in one transaction with its bookkeeping, issue 47), and its bundle is
// split per command and rebuilt when a source changed.

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** Runs the CLI and answers its output and the modules it resolved (e2e/support/module-log.mjs). */
function traced(env: Record<string, string | undefined>, ...args: string[]): { code: number | null; stdout: string; modules: string[] } {
  const dir = mkdtempSync(join(tmpdir(), "svc-modules-"));
  dirs.push(dir);
  const log = join(dir, "modules.txt");
  writeFileSync(log, "");
  const run = spawnSync(process.execPath, ["--import", join(ROOT, "e2e/support/module-log.mjs"), join(ROOT, "bin/svc.mjs"), ...args], {
    cwd: tmpdir(),
    env: { ...process.env, AUTH_SECRET: "startup-test-secret-0123456789abcdef", SVC_MODULE_LOG: log, ...env },
    encoding: "utf8",
  });
  expect(run.status, run.stderr).toBe(0);
  return { code: run.status, stdout: run.stdout, modules: readFileSync(log, "utf8").split("\n").filter(Boolean) };
}

const packagesOf = (modules: string[]) =>
  new Set(modules.flatMap((url) => /\/node_modules\/((?:@[^/]+\/)?[^/.][^/]*)\//.exec(url)?.[1] ?? []));

describe("svc starts fast", () => {
  it("answers --help without loading a package", () => {
    const { stdout, modules } = traced({}, "--help");
    expect(stdout).toContain("workspace create");
    expect([...packagesOf(modules)]).toEqual([]);
  });

  it("applies pending migrations without loading Prisma's schema engine, and loads nothing for them once applied", async () => {
    const database = await freshDatabase("postgres", "cli_startup");
    try {
      const first = traced(database.env, "workspace", "create", "--name", "First", "--json");
      expect(JSON.parse(first.stdout)).toEqual({ workspace: expect.stringMatching(/^first-/) });
      expect(packagesOf(first.modules)).not.toContain("@prisma/schema-engine-wasm");
      const second = traced(database.env, "workspace", "create", "--name", "Second", "--json");
      expect(JSON.parse(second.stdout)).toEqual({ workspace: expect.stringMatching(/^second-/) });
      expect(packagesOf(second.modules)).not.toContain("@prisma/schema-engine-wasm");
      expect(packagesOf(second.modules)).not.toContain("@electric-sql/pglite"); // PostgreSQL needs no PGlite
    } finally {
      await database.drop();
    }
  });

  it("splits its bundle at dynamic imports and builds it again when a source changed", async () => {
    const root = mkdtempSync(join(tmpdir(), "svc-bundle-"));
    dirs.push(root);
    writeFileSync(join(root, "main.ts"), 'export const later = () => import("./later.ts");\n');
    writeFileSync(join(root, "later.ts"), "export const value: number = 1;\n");
    const first = await bundled(root, "main.ts", "t", { split: true });
    expect(readFileSync(first, "utf8")).not.toContain("value = 1"); // in a chunk of its own
    expect(readdirSync(dirname(first)).some((f) => f.startsWith("later-"))).toBe(true);
    expect(await bundled(root, "main.ts", "t", { split: true })).toBe(first); // unchanged: not built again

    writeFileSync(join(root, "later.ts"), "export const value: number = 2;\n");
    const future = new Date(Date.now() + 2000); // a change within the same millisecond as the build still counts
    utimesSync(join(root, "later.ts"), future, future);
    const second = await bundled(root, "main.ts", "t", { split: true });
    expect(second).not.toBe(first);
    const { later } = (await import(pathToFileURL(second).href)) as { later: () => Promise<{ value: number }> };
    expect((await later()).value).toBe(2);
  });
});
