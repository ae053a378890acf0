// Shared by `npm start` and `npm test`: generate the Prisma client and build Next when the
// build is missing or older than the sources.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

const SOURCES = ["app", "server", "public", "next.config.mjs", "package-lock.json", "prisma/schema.prisma", "tsconfig.json"];
const SKIP = new Set(["node_modules", "generated", ".next"]);

function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let max = stat.mtimeMs;
  for (const entry of readdirSync(path)) if (!SKIP.has(entry)) max = Math.max(max, newest(join(path, entry)));
  return max;
}

/** One progress line per phase: what it does, then how long it took. */
function phase(quiet, text, fn) {
  if (quiet) return fn();
  const started = Date.now();
  process.stdout.write(`svc: ${text}…\n`);
  try {
    fn();
  } catch (err) {
    if (err.stdout) process.stdout.write(err.stdout); // the tool's output, now that it matters
    throw err;
  }
  process.stdout.write(`svc:   done in ${Math.round((Date.now() - started) / 100) / 10} s\n`);
}

export function prepare(root, { quiet = false } = {}) {
  // The tools' own output is shown only when they fail; the phases say what happens.
  const stdio = ["ignore", "pipe", "inherit"];
  if (
    !existsSync(join(root, "server/generated/prisma/client.ts")) ||
    newest(join(root, "prisma/schema.prisma")) > newest(join(root, "server/generated/prisma/client.ts"))
  ) {
    phase(quiet, "generating the database client", () =>
      execFileSync(process.execPath, [join(root, "scripts/generate.mjs"), "--quiet"], { cwd: root, stdio }),
    );
  }
  const buildId = join(root, ".next/BUILD_ID");
  const built = existsSync(buildId) ? statSync(buildId).mtimeMs : 0;
  if (built < Math.max(...SOURCES.map((s) => newest(join(root, s))))) {
    phase(quiet, "building the dashboard and API (next build; about 40 s on 2 idle cores, once per new version)", () =>
      execFileSync(process.execPath, [join(root, "node_modules/next/dist/bin/next"), "build"], {
        cwd: root,
        stdio,
        env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" },
      }),
    );
  }
}
