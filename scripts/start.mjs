// npm start: generate and build if needed, then run the server (server/main.ts) in this
// process, so SIGTERM reaches it directly for a graceful shutdown.
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { bundled } from "./lib/bundle.mjs";
import { prepare } from "./lib/prepare.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
process.chdir(root);
process.env.NODE_ENV = "production";
process.env.NEXT_TELEMETRY_DISABLED ??= "1";
prepare(root);
// The server runs from a bundle of its TypeScript (as the CLI does), not through a loader that
// compiles at run time: tsx's loader thread held 25-50 MB of the server's memory.
process.env.SVC_ROOT ??= root;
// npm passes a SIGTERM on to the shell it runs this script in, and the shell ends without
// passing it on: the server, left behind, served on for good. A parent gone is taken as that
// SIGTERM (the server's own handler stops it gracefully).
if (process.env.npm_lifecycle_event === "start") {
  const parent = process.ppid;
  setInterval(() => process.ppid !== parent && process.kill(process.pid, "SIGTERM"), 500).unref();
}
await import(pathToFileURL(await bundled(root, "server/main.ts", "server")).href);
