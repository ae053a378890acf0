// The server and the operator CLI run from bundles of this project's TypeScript (their
// packages stay in node_modules), rebuilt when any file they were built from changed.
// Compiling the sources on every run through tsx cost about 1.3 s of CPU per command; a
// bundle is built once (under a second) and then only loaded.
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";

function mtime(path) {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return Infinity; // a source that is gone: build again
  }
}

const OPTIONS = {
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  metafile: true,
  logLevel: "silent",
};

/**
 * The bundle of `entry` (relative to `root`), built now if missing or older than a source.
 * With `split`, the entry's dynamic imports become chunks of their own, loaded only when
 * reached (the CLI loads only the command that runs): the entry and its chunks are written
 * to a directory of their own, named in `<name>.json` with the inputs.
 */
export async function bundled(root, entry, name, { split = false, inline = [] } = {}) {
  return split ? bundledSplit(root, entry, name, inline) : bundledFile(root, entry, name);
}

/**
 * Packages stay imports from node_modules, except those named in `inline`, bundled in: Node's
 * loader reads and links an ES module package file by file (zod is about 230 files,
 * libphonenumber-js about 300), which cost more than the code they hold.
 */
function packagesExternal(inline) {
  return {
    name: "packages-external",
    setup(build) {
      // A bare specifier: neither relative nor absolute.
      build.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.path.startsWith("@/")) return undefined; // tsconfig paths: the project itself
        const name = args.path.startsWith("@") ? args.path.split("/").slice(0, 2).join("/") : args.path.split("/")[0];
        return inline.includes(name) ? undefined : { path: args.path, external: true };
      });
    },
  };
}

/** Where bundles are kept: in node_modules, so a fresh install starts with none. */
const cacheDir = (root) => join(root, "node_modules", ".cache", "svc");

/** When the newest of the files a bundle was built from (`inputs`, relative to `root`) last changed. */
const newestInput = (root, inputs) => Math.max(...inputs.map((input) => mtime(join(root, input))));

let builds = 0;

async function bundledFile(root, entry, name) {
  const dir = cacheDir(root);
  const out = join(dir, `${name}.mjs`);
  const inputsFile = join(dir, `${name}.inputs.json`);
  try {
    const inputs = JSON.parse(readFileSync(inputsFile, "utf8"));
    if (newestInput(root, inputs) <= statSync(out).mtimeMs) return out;
  } catch {
    // no bundle yet, or an unreadable list of inputs: build
  }
  const { build } = await import("esbuild");
  mkdirSync(dir, { recursive: true });
  // Built under a name of this process's own and renamed into place, so CLI commands started
  // at the same moment never load a half-written file.
  // (and of this call: a test starting three servers at once builds three times in one process).
  const tag = `${process.pid}.${++builds}`;
  const tmp = `${out}.${tag}.tmp`;
  const result = await build({ ...OPTIONS, entryPoints: [join(root, entry)], absWorkingDir: root, outfile: tmp });
  writeFileSync(`${inputsFile}.${tag}.tmp`, JSON.stringify(Object.keys(result.metafile.inputs)));
  renameSync(tmp, out);
  renameSync(`${inputsFile}.${tag}.tmp`, inputsFile);
  return out;
}

/** Builds of a split bundle older than this are removed (a process started from one may still load its chunks). */
const KEEP_OLD_BUILDS_MS = 10 * 60_000;

async function bundledSplit(root, entry, name, inline) {
  const dir = cacheDir(root);
  const manifest = join(dir, `${name}.json`);
  const file = `${basename(entry).replace(/\.[cm]?[jt]s$/, "")}.mjs`;
  // How it is built: another entry, other inlined packages or a change of this file build anew.
  const how = JSON.stringify({ entry, inline, builder: mtime(fileURLToPath(import.meta.url)) });
  try {
    const { build, startedAt, inputs, built } = JSON.parse(readFileSync(manifest, "utf8"));
    // Compared with the moment the build started: an input saved while it ran builds anew.
    const fresh = built === how && newestInput(root, inputs) < startedAt;
    if (fresh && mtime(join(dir, build, file)) !== Infinity) {
      return join(dir, build, file);
    }
  } catch {
    // no bundle yet, or an unreadable manifest: build
  }
  const { build } = await import("esbuild");
  // A directory per build, named in the manifest once complete (renamed into place): commands
  // started at the same moment never load a half-written build, nor chunks of two builds.
  const startedAt = Date.now();
  const buildName = `${name}-${startedAt.toString(36)}-${process.pid}`;
  const result = await build({
    ...OPTIONS,
    packages: undefined,
    plugins: [packagesExternal(inline)],
    // An inlined CommonJS package may require() a package left outside, or a builtin.
    banner: { js: 'import { createRequire as __bundleRequire } from "node:module"; const require = __bundleRequire(import.meta.url);' },
    entryPoints: [join(root, entry)],
    absWorkingDir: root,
    outdir: join(dir, buildName),
    splitting: true,
    entryNames: "[name]",
    chunkNames: "[name]-[hash]",
    outExtension: { ".js": ".mjs" },
  });
  const inputs = Object.keys(result.metafile.inputs);
  writeFileSync(`${manifest}.${process.pid}.tmp`, JSON.stringify({ build: buildName, startedAt, built: how, inputs }));
  renameSync(`${manifest}.${process.pid}.tmp`, manifest);
  for (const old of readdirSync(dir)) {
    if (old !== buildName && old.startsWith(`${name}-`) && Date.now() - mtime(join(dir, old)) > KEEP_OLD_BUILDS_MS) {
      rmSync(join(dir, old), { recursive: true, force: true });
    }
  }
  return join(dir, buildName, file);
}
