import { execFile, execFileSync, type ExecFileSyncOptions } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./free-port.ts";

// A PostgreSQL cluster of a test's own, for tests that stop or restart the database: initdb
// into a temporary folder, pg_ctl on a free loopback port. The shared server the other tests
// use (127.0.0.1:5432) is never touched.

export type PgCluster = {
  port: number;
  /** A connection URL to the cluster's `postgres` database (trust authentication). */
  url: string;
  /**
   * `pg_ctl stop -m fast`: connections are ended, new ones refused, until `start`. Runs
   * asynchronously, so the test's own requests keep being timed while it waits.
   */
  stop: () => Promise<void>;
  /** `pg_ctl start`, waiting until it accepts connections. */
  start: () => Promise<void>;
  /**
   * SIGSTOP to every process of the cluster: connections stay open and nothing answers, as
   * when a database host freezes or a network drops packets; `resume` sends SIGCONT.
   */
  pause: () => void;
  resume: () => void;
  /** Stops the cluster (immediately) and deletes its folder. */
  destroy: () => void;
};

/** The newest installed PostgreSQL's programs (Debian: /usr/lib/postgresql/<major>/bin). */
function binDir(): string {
  const base = "/usr/lib/postgresql";
  const majors = existsSync(base) ? readdirSync(base).filter((v) => existsSync(join(base, v, "bin", "pg_ctl"))) : [];
  majors.sort((a, b) => Number(b) - Number(a));
  if (!majors[0]) throw new Error(`no PostgreSQL programs under ${base}/*/bin`);
  return join(base, majors[0], "bin");
}

/**
 * PostgreSQL refuses to run as root: as root, the cluster runs as the `postgres` system user,
 * with that user's home (a server's own connections, as Citus's to its workers, look there
 * for client certificates: under root's, they failed with "Permission denied").
 */
function runAs(): { uid: number; gid: number; env: NodeJS.ProcessEnv } | null {
  if (process.getuid?.() !== 0) return null;
  const line = readFileSync("/etc/passwd", "utf8")
    .split("\n")
    .find((l) => l.startsWith("postgres:"));
  if (!line) throw new Error("running as root and there is no postgres user to run a cluster as");
  const [, , uid, gid, , home] = line.split(":");
  return { uid: Number(uid), gid: Number(gid), env: { ...process.env, HOME: home } };
}

/** Controls one PostgreSQL node's server: its data folder, log file and, for `start`, its `-o` options. */
export function nodeControl(dir: string, data: string, logFile: string, options: string | null) {
  const bin = binDir();
  const user = runAs();
  const failure = (program: string, args: string[], err: unknown) => {
    const e = err as { stderr?: Buffer | string; stdout?: Buffer | string };
    const log = existsSync(logFile) ? readFileSync(logFile, "utf8").slice(-2000) : "";
    return new Error(`${program} ${args.join(" ")} failed: ${e.stderr?.toString() ?? ""}${e.stdout?.toString() ?? ""}\n${log}`);
  };
  const run = (program: string, args: string[]) => {
    const opts: ExecFileSyncOptions = { stdio: ["ignore", "pipe", "pipe"], timeout: 120_000, ...(user ?? {}) };
    try {
      execFileSync(join(bin, program), args, opts);
    } catch (err) {
      throw failure(program, args, err);
    }
  };
  const runAsync = (program: string, args: string[]) =>
    new Promise<void>((resolve, reject) => {
      execFile(join(bin, program), args, { timeout: 120_000, ...(user ?? {}) }, (err, stdout, stderr) =>
        err ? reject(failure(program, args, { stdout, stderr })) : resolve(),
      );
    });
  const signalAll = (signal: "SIGSTOP" | "SIGCONT") => {
    const postmaster = Number(readFileSync(join(data, "postmaster.pid"), "utf8").split("\n")[0]);
    const children = execFileSync("pgrep", ["-P", String(postmaster)], { encoding: "utf8" })
      .split("\n")
      .filter(Boolean)
      .map(Number);
    for (const pid of [postmaster, ...children]) process.kill(pid, signal);
  };
  return {
    user,
    run,
    start: () => runAsync("pg_ctl", ["start", "-D", data, "-l", logFile, "-w", "-t", "60", ...(options ? ["-o", options] : [])]),
    stop: () => runAsync("pg_ctl", ["stop", "-D", data, "-m", "fast", "-w", "-t", "60"]),
    pause: () => signalAll("SIGSTOP"),
    resume: () => signalAll("SIGCONT"),
    /** Stops the node immediately (a paused one is resumed first); `dir` is deleted. */
    destroy: () => {
      try {
        signalAll("SIGCONT"); // a paused cluster cannot stop
      } catch {
        // not running
      }
      try {
        run("pg_ctl", ["stop", "-D", data, "-m", "immediate", "-w", "-t", "30"]);
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * `durable`: PostgreSQL's default settings (fsync, full-page writes), for a benchmark that
 * measures the WAL a workload writes; by default the cluster skips what only durability needs.
 */
export async function startPgCluster({ durable = false }: { durable?: boolean } = {}): Promise<PgCluster> {
  const dir = mkdtempSync(join(tmpdir(), "svc-pgcluster-"));
  const data = join(dir, "data");
  const user = runAs();
  if (user) chownSync(dir, user.uid, user.gid);
  const port = await freePort();
  // Its own socket folder, loopback only; durability is not what these tests measure.
  const options =
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1` +
    (durable ? "" : " -c fsync=off -c synchronous_commit=off -c full_page_writes=off");
  const node = nodeControl(dir, data, join(dir, "postgres.log"), options);
  node.run("initdb", ["-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"]);
  await node.start();
  let destroyed = false;
  return {
    port,
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    start: node.start,
    stop: node.stop,
    pause: node.pause,
    resume: node.resume,
    destroy: () => {
      if (destroyed) return;
      destroyed = true;
      node.destroy();
    },
  };
}
