import { spawn } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect } from "vitest";

// The operator CLI run as a real child process (`node bin/svc.mjs`), as operators run it.

const root = fileURLToPath(new URL("../..", import.meta.url));
const bin = join(root, "bin", "svc.mjs");
export type Run = { code: number | null; stdout: string; stderr: string };

/** Runs the CLI without blocking this process (a fake provider served from here keeps answering). */
export function svc(env: Record<string, string | undefined>, ...args: string[]): Promise<Run> {
  const base: Record<string, string | undefined> = { ...process.env };
  delete base.DATABASE_URL;
  delete base.DATA_DIR;
  const merged = Object.fromEntries(Object.entries({ ...base, ...env }).filter(([, v]) => v !== undefined)) as NodeJS.ProcessEnv;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd: tmpdir(), env: merged });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** A successful `--json` run: exactly one JSON object on stdout, nothing on stderr. */
export async function svcJson(env: Record<string, string | undefined>, ...args: string[]): Promise<Record<string, unknown>> {
  const run = await svc(env, ...args, "--json");
  expect(run.stderr, run.stderr).toBe("");
  expect(run.code).toBe(0);
  expect(run.stdout.endsWith("\n")).toBe(true);
  expect(run.stdout.trim().split("\n")).toHaveLength(1);
  const value: unknown = JSON.parse(run.stdout);
  expect(value).toBeTypeOf("object");
  return value as Record<string, unknown>;
}
