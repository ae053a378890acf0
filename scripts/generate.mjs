// Runs `prisma generate` offline. The Prisma CLI tries to download the native schema engine
// at start-up even though `generate` does not use it; pointing PRISMA_SCHEMA_ENGINE_BINARY at
// a placeholder file skips that download (ARCHITECTURE.md "Databases").
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync, existsSync } from "node:fs";
import { delimiter, join } from "node:path";
import { tmpdir } from "node:os";

const placeholder = join(tmpdir(), "svc-prisma-schema-engine-placeholder");
if (!existsSync(placeholder)) {
  mkdirSync(tmpdir(), { recursive: true });
  writeFileSync(placeholder, "#!/bin/sh\nexit 1\n", { mode: 0o755 });
}
execFileSync(process.execPath, ["node_modules/prisma/build/index.js", "generate"], {
  stdio: process.argv.includes("--quiet") ? "ignore" : "inherit",
  env: {
    ...process.env,
    // The row-type generator (prisma-kysely) is found by name on the PATH, as under `npm run`.
    PATH: `${join(process.cwd(), "node_modules", ".bin")}${delimiter}${process.env.PATH}`,
    PRISMA_SCHEMA_ENGINE_BINARY: placeholder,
    PRISMA_HIDE_UPDATE_MESSAGE: "1",
    CHECKPOINT_DISABLE: "1",
  },
});
