import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "../../e2e/support/server.ts";
import { percentile, record } from "../support.ts";

// The first `npm start` after `npm ci`, as a new user runs it: this checkout's commit (its
// files as a clone has them) with nothing built (no `.next`, no bundles, no embedded store),
// its installed packages linked from this one (what `npm ci` would write; its 2-minute
// download is npm's, not ours), timed from `node scripts/start.mjs` until the server says it
// listens, with the time of each phase it prints (the build, migrations, opening the store).
// BENCH_FIRST_START_RUNS runs, of BENCH_FIRST_START_REF.

const RUNS = Number(process.env.BENCH_FIRST_START_RUNS ?? 2);
/** The commit to start (another version, to compare; its packages must be this checkout's). */
const REF = process.env.BENCH_FIRST_START_REF ?? "HEAD";

type Run = { totalMs: number; phases: Record<string, number> };

/** The embedded store, as a new user starts: no DATABASE_URL. */
function withoutDatabaseUrl(): NodeJS.ProcessEnv {
  const { DATABASE_URL: _url, ...env } = process.env;
  return env;
}

async function firstStart(): Promise<Run> {
  const dir = mkdtempSync(join(tmpdir(), "svc-first-start-"));
  try {
    execFileSync("sh", ["-c", `git -C "${ROOT}" archive "${REF}" | tar -x -C "${dir}"`]); // the commit as a clone has it
    // `npm ci`'s result: the packages as hard links (cheap), without this checkout's caches.
    execFileSync("cp", ["-al", join(ROOT, "node_modules"), join(dir, "node_modules")]);
    rmSync(join(dir, "node_modules/.cache"), { recursive: true, force: true });
    execFileSync(process.execPath, ["scripts/generate.mjs", "--quiet"], { cwd: dir, stdio: "ignore" }); // npm ci's postinstall
    const started = performance.now();
    const child = spawn(process.execPath, ["scripts/start.mjs"], {
      cwd: dir,
      env: { ...withoutDatabaseUrl(), PORT: "0", NEXT_TELEMETRY_DISABLED: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    const totalMs = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no start in 10 minutes:\n${out}`)), 600_000);
      child.stdout!.on("data", (d: Buffer) => {
        out += d.toString();
        if (/svc is listening on/.test(out)) {
          clearTimeout(timer);
          resolve(performance.now() - started);
        }
      });
      child.stderr!.on("data", (d: Buffer) => (out += d.toString()));
      child.once("exit", (code) => reject(new Error(`npm start exited with ${code}:\n${out}`)));
    });
    child.removeAllListeners("exit");
    await new Promise((resolve) => {
      child.once("exit", resolve);
      child.kill("SIGTERM");
    });
    // "svc: building the dashboard and API (…)…", later "svc:   done in 39.6 s" (logs may come between).
    const phases: Record<string, number> = {};
    let phase: string | null = null;
    for (const line of out.split("\n")) {
      const begun = /^svc: (\S.*?)(?: \(.*\))?…$/.exec(line);
      const done = /^svc:\s+done in ([\d.]+) s/.exec(line);
      if (begun) phase = begun[1]!;
      else if (done && phase) phases[phase] = Number(done[1]) * 1000;
    }
    return { totalMs, phases };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function firstStarts(): Promise<void> {
  const runs: Run[] = [];
  for (let i = 0; i < RUNS; i++) runs.push(await firstStart());
  const ms = (xs: number[]) =>
    Math.round(
      percentile(
        xs.sort((a, b) => a - b),
        50,
      ),
    );
  const phases = [...new Set(runs.flatMap((r) => Object.keys(r.phases)))];
  const timed = phases.map((p) => `${p} ${(ms(runs.map((r) => r.phases[p] ?? 0)) / 1000).toFixed(1)} s`);
  record("first npm start after npm ci (embedded store), until it listens", {
    p50_ms: ms(runs.map((r) => r.totalMs)),
    note: `${REF}, ${RUNS} runs; of it: ${timed.join(", ") || "no phase timed"}; nothing built, packages linked from this checkout`,
  });
}
