import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./free-port.ts";
import { nodeControl, type PgCluster } from "./pg-cluster.ts";
import pg from "pg";
import { ROOT } from "./server.ts";

// A Citus cluster for the api-citus project (D87): a coordinator and two workers on loopback,
// started by ../shared/citus/cluster.sh (each node a PostgreSQL 15 server of its own), and a
// fresh database per test run made on every node. The migrations lay the tables out
// (prisma/migrations/*_citus_layout): nothing here distributes a table.

/**
 * Where the shared build and its scripts live: `../shared/citus` beside the checkout (a
 * worktree one level further down finds it one more level up), or CITUS_DIR.
 */
export const CITUS_DIR =
  process.env.CITUS_DIR ??
  [join(ROOT, "..", "shared", "citus"), join(ROOT, "..", "..", "shared", "citus")].find((dir) => existsSync(join(dir, "cluster.sh"))) ??
  join(ROOT, "..", "shared", "citus");
const CITUS_LIBRARY = "/usr/lib/postgresql/15/lib/citus.so";

/** The environment variable that names a running cluster's ports to the test processes: `coordinator,worker,worker`. */
export const CITUS_PORTS_ENV = "TEST_CITUS_PORTS";
/** The port of a started node that no database has as a worker yet: the rebalance test adds it (e2e/citus/rebalance.test.ts). */
export const CITUS_SPARE_ENV = "TEST_CITUS_SPARE";

/** Whether the extension is installed on this machine (`install.sh` run as root). */
export const citusInstalled = (): boolean => existsSync(CITUS_LIBRARY) && existsSync(join(CITUS_DIR, "cluster.sh"));

/** The ports of the cluster the test processes were given, or null outside api-citus. */
export function citusPorts(): number[] | null {
  const value = process.env[CITUS_PORTS_ENV];
  return value ? value.split(",").map(Number) : null;
}

const url = (port: number, database: string) => `postgresql://postgres@127.0.0.1:${port}/${database}`;

async function onNode<T>(port: number, database: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url(port, database) });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * Starts a coordinator and two workers on free ports (about 7 s), and a spare node, a worker
 * to be (`spare`: the test databases are made on the first three). Each test database's tables
 * get 4 shards instead of Citus's default 32: the layout migration creates every shard of 30
 * tables in one transaction, and 4 per table still puts rows on both workers.
 */
export async function startCitusCluster(): Promise<{ dir: string; ports: number[]; spare: number; stop: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), "svc-citus-"));
  const ports: number[] = [];
  while (ports.length < 4) {
    const port = await freePort();
    if (!ports.includes(port)) ports.push(port);
  }
  const script = join(CITUS_DIR, "cluster.sh");
  const stop = async () => {
    try {
      execFileSync(script, ["stop", dir], { stdio: "ignore" });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  try {
    execFileSync(script, ["start", dir, ...ports.map(String)], { stdio: ["ignore", "pipe", "pipe"] });
    await onNode(ports[0]!, "postgres", async (c) => {
      await c.query(`ALTER SYSTEM SET citus.shard_count = 4`);
      await c.query(`SELECT pg_reload_conf()`);
    });
  } catch (err) {
    await stop();
    throw err;
  }
  return { dir, ports: ports.slice(0, 3), spare: ports[3]!, stop };
}

/**
 * A Citus cluster of a test's own, as pg-cluster.ts gives a plain one (the PostgreSQL-restart
 * test on the api-citus project): a coordinator and two workers, whose `postgres` database is
 * the distributed one (cluster.sh registers the workers there); stop, start, pause and resume
 * act on the coordinator, the database the service is pointed at.
 */
export async function startCitusPgCluster(): Promise<PgCluster> {
  const cluster = await startCitusCluster();
  const coordinator = cluster.ports[0]!;
  const data = join(cluster.dir, `n${coordinator}`);
  // cluster.sh wrote the node's port and socket folder into its postgresql.conf: no options.
  const node = nodeControl(cluster.dir, data, `${data}.log`, null);
  let destroyed = false;
  return {
    port: coordinator,
    url: url(coordinator, "postgres"),
    start: node.start,
    stop: node.stop,
    pause: node.pause,
    resume: node.resume,
    destroy: () => {
      if (destroyed) return;
      destroyed = true;
      try {
        node.resume(); // a paused node cannot stop
      } catch {
        // not running
      }
      void cluster.stop();
    },
  };
}

/**
 * A fresh database on every node of the cluster, with Citus and the workers registered; `drop`
 * removes it everywhere. `spare`: nodes that get the database too but are not registered (a
 * test adds them as workers).
 */
export async function createCitusDatabase(
  ports: number[],
  name: string,
  spare: number[] = [],
): Promise<{ url: string; drop: () => Promise<void> }> {
  const [coordinator, ...workers] = ports as [number, ...number[]];
  for (const port of [...ports, ...spare]) {
    await onNode(port, "postgres", (c) => c.query(`CREATE DATABASE "${name}"`));
    await onNode(port, name, (c) => c.query(`CREATE EXTENSION citus`));
  }
  await onNode(coordinator, name, async (c) => {
    await c.query(`SELECT citus_set_coordinator_host('127.0.0.1', $1)`, [coordinator]);
    for (const port of workers) await c.query(`SELECT citus_add_node('127.0.0.1', $1)`, [port]);
  });
  return {
    url: url(coordinator, name),
    // A rebalance's background workers (Citus's task executor on the coordinator) hold the
    // database a little after it finished, and FORCE does not end them: tried again a few times.
    drop: async () => {
      for (const port of [...ports, ...spare]) {
        for (let attempt = 1; ; attempt++) {
          try {
            await onNode(port, "postgres", (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
            break;
          } catch (err) {
            if (attempt === 20 || !/being accessed by other users/.test(String(err))) throw err;
            await new Promise((r) => setTimeout(r, 500));
          }
        }
      }
    },
  };
}
