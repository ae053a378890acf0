import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

// D80: `dist/` is committed, so that `npm install <clone>/packages/client` works from a fresh
// clone with nothing built or installed first. It must be what `npm run build` makes of `src/`:
// after a change of the client, run `npm run build` in packages/client (or `npx tsc -p
// packages/client/tsconfig.build.json` from the root) and commit `dist/`.
const pkg = fileURLToPath(new URL("..", import.meta.url));
const tsc = fileURLToPath(new URL("../../../node_modules/typescript/bin/tsc", import.meta.url));

it("has a committed dist/ that is the build of src/", () => {
  const out = mkdtempSync(join(tmpdir(), "svc-client-dist-"));
  try {
    execFileSync(process.execPath, [tsc, "-p", join(pkg, "tsconfig.build.json"), "--outDir", out], { stdio: "pipe" });
    const built = readdirSync(out).sort();
    expect(readdirSync(join(pkg, "dist")).sort()).toEqual(built);
    for (const file of built) expect(readFileSync(join(pkg, "dist", file), "utf8"), file).toBe(readFileSync(join(out, file), "utf8"));
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
