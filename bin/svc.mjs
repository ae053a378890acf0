#!/usr/bin/env node
// `npx svc <command>`: the operator CLI (operations.md). It runs a bundle of the TypeScript
// sources (scripts/lib/bundle.mjs), rebuilt when a source changed, so paths are resolved from
// this package, whatever the working directory. The bundle is split: the entry holds the
// argument parsing and the help, and each command is a chunk loaded only when it runs; the
// packages made of many small ES modules or wrapped in CommonJS are bundled in (bundle.mjs).
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { setFlagsFromString } from "node:v8";
import { bundled } from "../scripts/lib/bundle.mjs";

// A command is a short process: its WebAssembly (the embedded store, Prisma's query compiler,
// the migration engine) runs from V8's baseline compiler, without the optimizing tier that a
// long-running server earns back. Measured: 2.9 -> 1.9 CPU-seconds for a command on the
// embedded store, 10 -> 7.8 for one that migrates a new store first.
setFlagsFromString("--liftoff-only");

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
// Migrations are read from <SVC_ROOT>/prisma (server/db/migrate.ts); the default embedded
// store is the project's ./.data, the same one `npm start` opens.
process.env.SVC_ROOT ??= root;
if (!process.env.DATA_DIR) process.env.DATA_DIR = join(root, ".data");

let entry;
try {
  entry = await bundled(root, "server/cli/svc.ts", "svc", {
    split: true,
    inline: ["zod", "libphonenumber-js", "@prisma/client", "@prisma/client-runtime-utils"],
  });
} catch {
  // No place to write the bundle (a read-only install): compile the sources as they load.
  const { register } = await import("tsx/esm/api");
  register();
  entry = join(root, "server", "cli", "svc.ts");
}
await import(pathToFileURL(entry).href);
