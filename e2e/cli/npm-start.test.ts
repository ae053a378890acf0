import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { freshDatabase, type Engine } from "../support/database.ts";
import { ROOT, START_BUDGET_MS } from "../support/server.ts";
import { poll, poller } from "../support/until.ts";

// `npm start | cat` stopped by a SIGTERM (issue 46): the server ends within 10 s, as with
// SIGINT, whoever gets the signal. Sent to the whole process group (a terminal's kill, a
// supervisor's), cat is gone before the server's last log lines are written: pino's exit hook
// retried that write forever. Sent to npm alone (`docker stop` of `npm start`), npm passes it to
// its shell, which ended without passing it on, and the server served on.

const STOP_MS = 10_000;

/** The processes of a process group, by pid, with their state and command line (Linux's /proc). */
function groupMembers(pgid: number): { pid: number; state: string; args: string }[] {
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .flatMap((pid) => {
      try {
        // "pid (comm) state ppid pgrp …": comm may hold spaces, the fields after its ")" do not.
        const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
        const [state, , pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        if (Number(pgrp) !== pgid) return [];
        return [{ pid: Number(pid), state: state!, args: readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ").trim() }];
      } catch {
        return []; // ended meanwhile
      }
    });
}

const alive = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z"; // a zombie has ended
  } catch {
    return false;
  }
};

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** `npm start | cat` in a process group of its own; answers once the server listens. */
async function npmStartPiped(env: Record<string, string | undefined>) {
  const shell = spawn("sh", ["-c", "npm start | cat"], {
    cwd: ROOT,
    detached: true, // a process group of its own, as a terminal's job
    env: { ...process.env, PORT: "0", AUTH_SECRET: "npm-start-test-secret-0123456789abcdef", LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const pgid = shell.pid!;
  cleanups.push(() => {
    for (const { pid } of groupMembers(pgid)) if (alive(pid)) process.kill(pid, "SIGKILL"); // never leave a server behind
  });
  const closed = new Promise<void>((resolve) => shell.once("close", () => resolve()));
  let out = "";
  shell.stdout!.on("data", (d: Buffer) => (out += d.toString()));
  shell.stderr!.on("data", (d: Buffer) => (out += d.toString()));
  // A fresh start on a busy machine: see START_BUDGET_MS (e2e/support/server.ts).
  await poller(240_000)(
    () => out,
    (text) => text.includes("svc is listening on"),
  );
  const members = groupMembers(pgid);
  const server = members.find((m) => m.args.endsWith("scripts/start.mjs"));
  const npm = members.find((m) => /\bnpm start$/.test(m.args) || m.args.endsWith("npm-cli.js start"));
  expect(server, JSON.stringify(members)).toBeDefined();
  expect(npm, JSON.stringify(members)).toBeDefined();
  return { pgid, server: server!.pid, npm: npm!.pid, output: () => out, closed };
}

/** How long the server took to end after `signal`. */
async function stopTime(server: number, signal: () => void): Promise<number> {
  const sent = Date.now();
  signal();
  await poll(
    () => alive(server),
    (running) => !running,
    3 * STOP_MS,
    50,
  );
  return Date.now() - sent;
}

describe.each<Engine>(["pglite", "postgres"])("npm start | cat on %s", (engine) => {
  it(
    "ends within 10 s of a SIGTERM to its process group, and of one to npm alone",
    async () => {
      const database = await freshDatabase(engine, "npm_start", { migrated: true });
      cleanups.push(database.drop);

      const group = await npmStartPiped(database.env);
      const groupMs = await stopTime(group.server, () => process.kill(-group.pgid, "SIGTERM"));
      expect(groupMs, group.output()).toBeLessThan(STOP_MS);

      const npm = await npmStartPiped(database.env);
      const npmMs = await stopTime(npm.server, () => process.kill(npm.npm, "SIGTERM"));
      expect(npmMs, npm.output()).toBeLessThan(STOP_MS);
      await npm.closed; // cat has passed on the server's last lines
      expect(npm.output()).toContain('"msg":"stopped"'); // gracefully, by its own handler
    },
    120_000 + 2 * START_BUDGET_MS,
  );
});
