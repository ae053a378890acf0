// npm run bench: the project's benchmark command. Each section starts real server processes
// on fresh databases, warms up, then measures with autocannon (50 connections). Results are
// printed as a table and written to bench/results/latest.json.
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { freshDatabase, type Engine } from "../e2e/support/database.ts";
import { ROOT, startServer } from "../e2e/support/server.ts";
import { prepare } from "../scripts/lib/prepare.mjs";
import { load, type LoadResult } from "./load.ts";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
const results: Record<string, LoadResult & { note?: string }> = {};

prepare(ROOT, { quiet: true });

/** One fresh database and server per engine, seeded with a workspace whose rate limit is raised. */
async function withServer(engine: Engine, run: (url: string, keys: { testKey: string; liveKey: string }) => Promise<void>): Promise<void> {
  const database = await freshDatabase(engine, `bench_${engine}`);
  try {
    const seeded = JSON.parse(
      execFileSync(process.execPath, ["--import", "tsx", "bench/seed.ts"], {
        cwd: ROOT,
        env: { ...process.env, ...database.env },
        encoding: "utf8",
      }),
    ) as { testKey: string; liveKey: string };
    const server = await startServer({ ...database.env, LOG_LEVEL: "warn" });
    try {
      await run(server.url, seeded);
    } finally {
      await server.stop();
    }
  } finally {
    await database.drop();
  }
}

/** POST /contacts upserts: a new contact per request (phone and e-mail unique), 50 connections. */
async function contactUpserts(engine: Engine): Promise<void> {
  await withServer(engine, async (url, keys) => {
    let n = 0;
    results[`POST /api/v1/contacts upsert (${engine})`] = await load({
      url: `${url}/api/v1/contacts`,
      method: "POST",
      seconds: SECONDS,
      warmupSeconds: WARMUP,
      headers: { Authorization: `Bearer ${keys.testKey}`, "Content-Type": "application/json" },
      setupRequest: (req) => {
        n++;
        const phone = `+55119${String(10_000_000 + n).slice(-8)}`;
        return { ...req, body: JSON.stringify({ phone, email: `bench${n}@example.com`, name: `Bench ${n}` }) };
      },
    });
  });
}

async function keyCheck(engine: Engine): Promise<void> {
  await withServer(engine, async (url, keys) => {
    results[`GET /api/v1/ (${engine})`] = await load({
      url: `${url}/api/v1/`,
      seconds: SECONDS,
      warmupSeconds: WARMUP,
      headers: { Authorization: `Bearer ${keys.testKey}` },
    });
  });
}

async function baseline(): Promise<void> {
  const database = await freshDatabase("postgres", "bench_baseline");
  const child = spawn(process.execPath, ["--import", "tsx", "bench/baseline-server.ts"], {
    cwd: ROOT,
    env: { ...process.env, ...database.env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  try {
    const port = await new Promise<number>((resolve) =>
      child.stdout.on("data", (d: Buffer) => resolve(Number(/listening (\d+)/.exec(d.toString())?.[1]))),
    );
    results["baseline node:http + pg, 1 insert (postgres)"] = await load({
      url: `http://127.0.0.1:${port}/`,
      seconds: SECONDS,
      warmupSeconds: WARMUP,
      headers: { Authorization: "Bearer x" },
    });
  } finally {
    child.kill("SIGTERM");
    await new Promise((r) => child.once("exit", r));
    await database.drop();
  }
}

const only = process.argv.slice(2);
const sections: Record<string, () => Promise<void>> = {
  baseline,
  "key-check-postgres": () => keyCheck("postgres"),
  "key-check-pglite": () => keyCheck("pglite"),
  "contacts-postgres": () => contactUpserts("postgres"),
};
for (const [name, run] of Object.entries(sections)) {
  if (only.length && !only.includes(name)) continue;
  process.stderr.write(`bench: ${name}…\n`);
  await run();
}

const base = results["baseline node:http + pg, 1 insert (postgres)"];
const pgKey = results["GET /api/v1/ (postgres)"];
if (base && pgKey) pgKey.note = `${(pgKey.rps / base.rps).toFixed(2)}× the baseline (target ≥ 0.5×)`;

console.log(
  `\n${"section".padEnd(48)} ${"req/s".padStart(8)} ${"p50 ms".padStart(7)} ${"p99 ms".padStart(7)} ${"non-2xx".padStart(8)}  note`,
);
for (const [name, r] of Object.entries(results)) {
  console.log(
    `${name.padEnd(48)} ${String(r.rps).padStart(8)} ${String(r.p50).padStart(7)} ${String(r.p99).padStart(7)} ${String(r.non2xx).padStart(8)}  ${r.note ?? ""}`,
  );
}
mkdirSync(join(ROOT, "bench/results"), { recursive: true });
writeFileSync(
  join(ROOT, "bench/results/latest.json"),
  JSON.stringify({ at: new Date().toISOString(), seconds: SECONDS, results }, null, 2),
);
