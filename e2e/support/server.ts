import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { bundled } from "../../scripts/lib/bundle.mjs";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

export type RunningServer = {
  url: string;
  process: ChildProcess;
  output: () => string;
  stop: (signal?: NodeJS.Signals) => Promise<number | null>;
};

/**
 * What a test gives one server start (or several started at once) within its own timeout:
 * a restart on the embedded store took 5 s on a quiet machine and 27 s with three test files
 * and Playwright running beside it; a test that starts servers adds this much per start.
 */
export const START_BUDGET_MS = 45_000;

/** How long `stop` waits for a server to exit before it kills it. */
const STOP_BACKSTOP_MS = 60_000;

/** Node's flags for a short process of the tests: WebAssembly on V8's baseline tier alone (see startServer). */
export const SHORT_PROCESS_FLAGS = ["--liftoff-only"];

/** Node's flags of `npm start` (package.json's `start` script): every server the tests and the benchmark start runs with them. */
export const SERVER_FLAGS: readonly string[] = (
  JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: { start: string } }
).scripts.start
  .split(/\s+/)
  .filter((arg) => arg.startsWith("--"));

/**
 * Starts the real server (server/main.ts, bundled as `npm start` runs it) as a child process
 * on a free port and waits until it listens. Needs a prior `next build`.
 *
 * A test's own server lives seconds to minutes, and V8's optimizing tier for WebAssembly (the
 * embedded store, Prisma's query compiler, the migration engine) costs more CPU than it gives
 * back in that time: a start, a few requests and a stop on the embedded store took 6.6 CPU-s
 * with it and 4.8 without. So it runs on V8's baseline tier alone; `longLived` (a run's shared
 * servers, the dashboard's, the benchmark's) keeps both tiers, as `npm start` does. Behaviour is
 * the same. Either way it runs with `npm start`'s own flags (`SERVER_FLAGS`).
 */
export async function startServer(
  env: Record<string, string | undefined>,
  { timeoutMs = 240_000, longLived = false } = {},
): Promise<RunningServer> {
  const flags = longLived ? SERVER_FLAGS : [...SERVER_FLAGS, ...SHORT_PROCESS_FLAGS];
  const child = spawn(process.execPath, [...flags, await bundled(ROOT, "server/main.ts", "server")], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1", PORT: "0", PIPELINE: "off", LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (out += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    // A fresh store migrates and seeds the demo first: on a busy shared machine that was
    // measured at 150 s, so the budget is generous (a server that fails to start exits sooner).
    const timer = setTimeout(() => {
      child.kill("SIGKILL"); // never leave a server behind holding its database
      reject(new Error(`server did not start in ${timeoutMs / 1000} s:\n${out}`));
    }, timeoutMs);
    const check = () => {
      const m = /svc is listening on (http:\/\/localhost:\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!.replace("localhost", "127.0.0.1"));
      }
    };
    child.stdout!.on("data", check);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${out}`));
    });
  });
  return {
    url,
    process: child,
    output: () => out,
    stop: (signal = "SIGTERM") =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode);
        // The server's own deadline (SHUTDOWN_TIMEOUT_SECONDS, 30 s) ends a stuck shutdown; this
        // backstop only keeps a run from waiting forever on a server that ignored it (stop 56's
        // CI waited 53 minutes after Vitest's report), and says so.
        const backstop = setTimeout(() => {
          process.stderr.write(
            `server ${child.pid} still running ${STOP_BACKSTOP_MS / 1000} s after ${signal}: SIGKILL\n${out.slice(-3000)}\n`,
          );
          child.kill("SIGKILL");
        }, STOP_BACKSTOP_MS);
        child.once("exit", (code) => {
          clearTimeout(backstop);
          resolve(code);
        });
        child.kill(signal);
      }),
  };
}

/**
 * Starts `count` servers at once. If one fails to start, the others are stopped before the
 * error is thrown: a test whose setup failed never leaves a server running after it.
 */
export async function startServers(count: number, env: Record<string, string | undefined>): Promise<RunningServer[]> {
  const started = await Promise.allSettled(Array.from({ length: count }, () => startServer(env)));
  const servers = started.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
  const failed = started.find((s) => s.status === "rejected");
  if (failed) {
    await Promise.all(servers.map((s) => s.stop()));
    throw failed.reason;
  }
  return servers;
}
