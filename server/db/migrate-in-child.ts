import { spawn } from "node:child_process";
import { join } from "node:path";

/**
 * Applies pending migrations in a child process (`scripts/migrate.ts --json`, the script of
 * `npm run db:migrate`) and answers the names applied. The child inherits the environment, so
 * it migrates the same database; its failure is this process's failure, with its output.
 */
export function migrateInChild(root: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", join(root, "scripts", "migrate.ts"), "--json"], {
      cwd: root,
      env: process.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => {
      const last = out.trim().split("\n").pop() ?? "";
      try {
        if (code === 0) return resolve((JSON.parse(last) as { applied: string[] }).applied);
      } catch {
        // fall through to the failure below
      }
      reject(new Error(`migrations failed (exit ${code}):\n${err || out}`));
    });
  });
}
