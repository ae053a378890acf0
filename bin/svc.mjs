#!/usr/bin/env node
// `npx svc <command>`: the operator CLI (operations.md). It runs the TypeScript sources with
// tsx, so paths are resolved from this package, whatever the working directory.
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { register } from "tsx/esm/api";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
// Migrations are read from <SVC_ROOT>/prisma (server/db/migrate.ts); the default embedded
// store is the project's ./.data, the same one `npm start` opens.
process.env.SVC_ROOT ??= root;
if (!process.env.DATA_DIR) process.env.DATA_DIR = join(root, ".data");

register();
await import(pathToFileURL(join(root, "server", "cli", "svc.ts")).href);
