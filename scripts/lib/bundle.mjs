// The operator CLI runs from one bundled file of this project's TypeScript (its packages stay
// in node_modules), rebuilt when any file it was built from changed. Compiling the sources on
// every run through tsx cost about 1.3 s of CPU per command; the bundle is built once (under a
// second) and then only loaded.
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";

function mtime(path) {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return Infinity; // a source that is gone: build again
  }
}

/** The bundle of `entry` (relative to `root`), built now if missing or older than a source. */
export async function bundled(root, entry, name) {
  const dir = join(root, "node_modules", ".cache", "svc");
  const out = join(dir, `${name}.mjs`);
  const inputsFile = join(dir, `${name}.inputs.json`);
  try {
    const built = statSync(out).mtimeMs;
    const inputs = JSON.parse(readFileSync(inputsFile, "utf8"));
    if (inputs.every((input) => mtime(join(root, input)) <= built)) return out;
  } catch {
    // no bundle yet, or an unreadable list of inputs: build
  }
  const { build } = await import("esbuild");
  mkdirSync(dir, { recursive: true });
  // Built under a name of this process's own and renamed into place, so CLI commands started
  // at the same moment never load a half-written file.
  const tmp = `${out}.${process.pid}.tmp`;
  const result = await build({
    entryPoints: [join(root, entry)],
    absWorkingDir: root,
    outfile: tmp,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    metafile: true,
    logLevel: "silent",
  });
  writeFileSync(`${inputsFile}.${process.pid}.tmp`, JSON.stringify(Object.keys(result.metafile.inputs)));
  renameSync(tmp, out);
  renameSync(`${inputsFile}.${process.pid}.tmp`, inputsFile);
  return out;
}
