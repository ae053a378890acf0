// npm start: generate and build if needed, then run the server (server/main.ts) in this
// process, so SIGTERM reaches it directly for a graceful shutdown.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { prepare } from "./lib/prepare.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
process.chdir(root);
process.env.NODE_ENV = "production";
process.env.NEXT_TELEMETRY_DISABLED ??= "1";
prepare(root);
const { register } = await import("tsx/esm/api");
register();
await import("../server/main.ts");
