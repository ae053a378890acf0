import pino from "pino";
import { env } from "./env.ts";
import { runtime } from "./runtime.ts";

declare module "./runtime.ts" {
  interface Runtime {
    log?: pino.Logger;
  }
}

// Structured JSON logs (pino). Each request logs with its request id (server/main.ts). One
// logger per process (server/lib/runtime.ts).
export function log(): pino.Logger {
  const shared = runtime();
  shared.log ??= pino({ level: env().logLevel, base: { svc: "svc" } });
  return shared.log;
}
