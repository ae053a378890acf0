// npm test: Vitest (unit, CLI, and the API integration tests on PostgreSQL and PGlite), then
// Playwright in real Chromium. Both run against a production build of the real server.
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { prepare } from "./lib/prepare.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
process.env.NEXT_TELEMETRY_DISABLED ??= "1";
prepare(root);

const bin = (name) => join(root, "node_modules/.bin", name);
const steps = [
  ["vitest", [bin("vitest"), "run", ...process.argv.slice(2)]],
  ["playwright", [bin("playwright"), "test"]],
];
let failed = 0;
for (const [name, [cmd, ...args]] of steps) {
  const run = spawnSync(cmd, args, { cwd: root, stdio: "inherit", env: process.env });
  if (run.status !== 0) {
    failed++;
    console.error(`\n${name} failed (exit ${run.status ?? run.signal})`);
  }
}
process.exit(failed ? 1 : 0);
