// Shared by `npm start` and `npm test`: generate the Prisma client and build Next when the
// build is missing or older than the sources.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

const SOURCES = ["app", "server", "public", "next.config.ts", "package-lock.json", "prisma/schema.prisma", "tsconfig.json"];
const SKIP = new Set(["node_modules", "generated", ".next"]);

function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let max = stat.mtimeMs;
  for (const entry of readdirSync(path)) if (!SKIP.has(entry)) max = Math.max(max, newest(join(path, entry)));
  return max;
}

export function prepare(root, { quiet = false } = {}) {
  const stdio = quiet ? ["ignore", "ignore", "inherit"] : "inherit";
  if (
    !existsSync(join(root, "server/generated/prisma/client.ts")) ||
    newest(join(root, "prisma/schema.prisma")) > newest(join(root, "server/generated/prisma/client.ts"))
  ) {
    execFileSync(process.execPath, [join(root, "scripts/generate.mjs"), "--quiet"], { cwd: root, stdio });
  }
  const buildId = join(root, ".next/BUILD_ID");
  const built = existsSync(buildId) ? statSync(buildId).mtimeMs : 0;
  if (built < Math.max(...SOURCES.map((s) => newest(join(root, s))))) {
    if (!quiet) console.log("Building the dashboard (next build)…");
    execFileSync(process.execPath, [join(root, "node_modules/next/dist/bin/next"), "build"], {
      cwd: root,
      stdio,
      env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" },
    });
  }
}
