import pino from "pino";
import { env } from "./env.ts";

// Structured JSON logs (pino). Each request logs with its request id (server/main.ts).
const slot = globalThis as typeof globalThis & { __svcLog?: pino.Logger };

export function log(): pino.Logger {
  slot.__svcLog ??= pino({ level: env().logLevel, base: { svc: "svc" } });
  return slot.__svcLog;
}
