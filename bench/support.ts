import { execFileSync, spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import pg from "pg";
import { freshDatabase, type Engine } from "../e2e/support/database.ts";
import { ROOT, startServer, type RunningServer } from "../e2e/support/server.ts";

export const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
export const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);

/** One row of the report: figures by name, and a note (target met or not). */
export type Row = Record<string, number | string>;
export const results: Record<string, Row> = {};
export const record = (name: string, row: Row) => (results[name] = row);

/** The dashboard user bench/seed.ts creates in the workspace (the inspector is measured signed in). */
export const BENCH_ADMIN = { email: "bench-admin@example.test", password: "bench-admin-password" };

export type Seeded = { workspace: string; testKey: string; liveKey: string };
export type Bench = {
  url: string;
  keys: Seeded;
  env: Record<string, string | undefined>;
  server: RunningServer;
  sql: (text: string, values?: unknown[]) => Promise<any[]>;
};

/** A fresh database, seeded (bench/seed.ts): the workspace and its keys. */
export async function seededDatabase(
  engine: Engine,
  name: string,
): Promise<{ database: Awaited<ReturnType<typeof freshDatabase>>; keys: Seeded }> {
  const database = await freshDatabase(engine, name);
  return { database, keys: seed(database.env) };
}

/** Migrates the database `env` names and seeds it (bench/seed.ts): the workspace and its keys. */
export function seed(env: Record<string, string | undefined>): Seeded {
  return JSON.parse(
    execFileSync(process.execPath, ["--import", "tsx", "bench/seed.ts"], { cwd: ROOT, env: { ...process.env, ...env }, encoding: "utf8" }),
  ) as Seeded;
}

/** A fresh database, seeded (bench/seed.ts), and a server on it; `extraEnv` configures it. */
export async function withServer(engine: Engine, extraEnv: Record<string, string>, run: (bench: Bench) => Promise<void>): Promise<void> {
  const { database, keys } = await seededDatabase(engine, `bench_${engine}`);
  try {
    const env = { ...database.env, LOG_LEVEL: "warn", ...extraEnv };
    const server = await startServer(env, { longLived: true });
    try {
      await run({ url: server.url, keys, env, server, sql: (text, values) => sql(database.env.DATABASE_URL!, text, values) });
    } finally {
      await server.stop();
    }
  } finally {
    await database.drop();
  }
}

/**
 * Opens the 24-hour WhatsApp window of `count` phones, `+55119` and the last 8 digits of
 * `first + i`: their contacts are written ahead with the window open, since the sections
 * measure live sends, not inbound messages (a live free-form send needs an open window).
 */
export async function openWindows(bench: Bench, first: number, count: number): Promise<void> {
  await bench.sql(
    `INSERT INTO contacts (id, workspace_id, phone, whatsapp_window_expires_at)
     SELECT 'ct_bench' || ($2::int + i), $1, '+55119' || right(($2::int + i)::text, 8), now() + interval '1 day'
     FROM generate_series(0, $3::int - 1) AS i
     ON CONFLICT (workspace_id, phone) DO UPDATE SET whatsapp_window_expires_at = EXCLUDED.whatsapp_window_expires_at`,
    [bench.keys.workspace, first, count],
  );
}

export async function sql(url: string, text: string, values: unknown[] = []): Promise<any[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, values)).rows;
  } finally {
    await client.end();
  }
}

/** Starts a small baseline server script (prints `listening <port>`). */
export async function startBaseline(
  script: string,
  env: Record<string, string | undefined>,
): Promise<{ url: string; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, ["--import", "tsx", script], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await new Promise<number>((resolve) =>
    child.stdout.on("data", (d: Buffer) => resolve(Number(/listening (\d+)/.exec(d.toString())?.[1]))),
  );
  return {
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
    },
  };
}

/** The peak resident set size of a process so far, in MB (Linux VmHWM). */
/** The peak resident memory of a process and its children (an upper bound of their peak together), in MB. */
export function peakRssMb(pid: number): number {
  const kb = (id: string) => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${id}/status`, "utf8"))?.[1] ?? 0);
  const children = readdirSync(`/proc/${pid}/task`).flatMap((task) =>
    readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").split(" ").filter(Boolean),
  );
  return Math.round([String(pid), ...children].reduce((sum, id) => sum + kb(id), 0) / 1024);
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
