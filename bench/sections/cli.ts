import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freshDatabase } from "../../e2e/support/database.ts";
import { ROOT, startServer, type RunningServer } from "../../e2e/support/server.ts";
import { percentile, record } from "../support.ts";

// The operator CLI as operators run it: one process per command (`node bin/svc.mjs …`), each
// of the README's commands BENCH_CLI_RUNS times on PostgreSQL, on the embedded store with no
// server, and on the embedded store through a running server (D53), next to `node -e 0` in the
// same run. Wall time is taken around the child; its peak memory from GNU time when the
// machine has it (`/usr/bin/time`), otherwise from the child itself at exit.

const RUNS = Number(process.env.BENCH_CLI_RUNS ?? 5);
const GNU_TIME = existsSync("/usr/bin/time") ? "/usr/bin/time" : null;
// BENCH_SVC_BIN: another CLI entry to time the same way (a build of another version, to compare).
const BIN = process.env.BENCH_SVC_BIN ?? join(ROOT, "bin", "svc.mjs");

type Sample = { ms: number; rssMb: number; stdout: string };

/** One child: `program` (node by default) with `argv`, in `cwd` (a directory outside the project by default). */
function run(argv: string[], env: Record<string, string | undefined>, program = process.execPath, cwd = tmpdir()): Sample {
  const rssFile = join(tmpdir(), `svc-bench-rss-${process.pid}`);
  const [command, ...args] = GNU_TIME ? [GNU_TIME, "-f", "%M", "-o", rssFile, program, ...argv] : [program, ...argv];
  const started = performance.now();
  const child = spawnSync(command!, args, { cwd, env: { ...process.env, ...env } as NodeJS.ProcessEnv, encoding: "utf8" });
  const ms = performance.now() - started;
  if (child.status !== 0) throw new Error(`${argv.join(" ")} exited with ${child.status}:\n${child.stderr}${child.stdout}`);
  const rssMb = GNU_TIME ? Number(readFileSync(rssFile, "utf8").trim().split("\n").pop()) / 1024 : NaN;
  rmSync(rssFile, { force: true });
  return { ms, rssMb, stdout: child.stdout };
}

const svc = (env: Record<string, string | undefined>, ...args: string[]) => run([BIN, ...args], env);
const json = (sample: Sample) => JSON.parse(sample.stdout) as Record<string, string>;

/** Each README command once, in an order where each finds what it needs; the samples by command. */
function readmeCommands(env: Record<string, string | undefined>, round: number, flowFile: string): Record<string, Sample> {
  const s: Record<string, Sample> = {};
  const tag = `${process.pid}-${round}-${Math.random().toString(36).slice(2, 6)}`;
  const phoneNumberId = String(Date.now() * 100 + round);
  s["--help"] = svc(env, "--help");
  s["workspace create"] = svc(env, "workspace", "create", "--name", "Acme", "--plan", "pro", "--default-country", "BR", "--json");
  const workspace = json(s["workspace create"]).workspace!;
  s["key create"] = svc(
    env,
    "key",
    "create",
    "--workspace",
    workspace,
    "--mode",
    "live",
    "--scopes",
    "messages:send,messages:read",
    "--json",
  );
  s["key revoke"] = svc(env, "key", "revoke", "--workspace", workspace, "--id", json(s["key create"]).id!, "--json");
  const email = `ops-${tag}@acme.test`;
  s["user create"] = svc(
    env,
    "user",
    "create",
    "--workspace",
    workspace,
    "--email",
    email,
    "--password",
    "correct horse battery",
    "--role",
    "admin",
    "--json",
  );
  s["user reset-password"] = svc(env, "user", "reset-password", "--workspace", workspace, "--email", email, "--json");
  s["demo"] = svc(env, "demo", "--json");
  s["channel connect whatsapp"] = svc(
    env,
    ...["channel", "connect", "--workspace", workspace, "--type", "whatsapp", "--phone-number-id", phoneNumberId],
    ...["--access-token", "token", "--app-secret", "secret", "--verify-token", "verify", "--json"],
  );
  s["channel connect email"] = svc(
    env,
    ...["channel", "connect", "--workspace", workspace, "--type", "email"],
    ...["--smtp-url", "smtps://user:pass@127.0.0.1:465", "--from", `news-${tag}@acme.test`, "--json"],
  );
  s["webhook create"] = svc(
    env,
    "webhook",
    "create",
    "--workspace",
    workspace,
    "--url",
    "http://127.0.0.1:9/svc",
    "--events",
    "mensagem.enviada,mensagem.falhou",
    "--json",
  );
  s["flow import"] = svc(env, "flow", "import", "--workspace", workspace, "--file", flowFile, "--status", "active", "--json");
  s["tick"] = svc(env, "tick", "--budget-ms", "1000", "--json");
  return s;
}

function report(name: string, samples: Sample[], targetMs: number | null): void {
  const ms = samples.map((x) => x.ms).sort((a, b) => a - b);
  const rss = Math.round(Math.max(...samples.map((x) => x.rssMb)));
  const p95 = Math.round(percentile(ms, 95));
  record(name, {
    p50_ms: Math.round(percentile(ms, 50)),
    p95_ms: p95,
    rss_mb: rss,
    note: targetMs === null ? `${samples.length} runs` : `${samples.length} runs; targets < ${targetMs} ms, < 150 MB`,
  });
}

async function engine(
  label: string,
  kind: "postgres" | "pglite",
  served: boolean,
  targetMs: number | null,
  flowFile: string,
): Promise<void> {
  // The first command on an empty database applies every migration (once).
  const empty = await freshDatabase(kind, "bench_cli_empty");
  try {
    report(
      `svc workspace create, empty database (${label})`,
      [svc(common(empty.env), "workspace", "create", "--name", "First", "--json")],
      null,
    );
  } finally {
    await empty.drop();
  }
  const database = await freshDatabase(kind, "bench_cli", { migrated: true });
  let server: RunningServer | undefined;
  try {
    const env = common(database.env);
    if (served) server = await startServer(env, { longLived: true });
    const byCommand: Record<string, Sample[]> = {};
    for (let round = 0; round < RUNS + 1; round++) {
      const samples = readmeCommands(env, round, flowFile);
      if (round === 0) continue; // warm-up: the bundle is built and the files are in the page cache
      for (const [command, sample] of Object.entries(samples)) (byCommand[command] ??= []).push(sample);
    }
    for (const [command, samples] of Object.entries(byCommand)) report(`svc ${command} (${label})`, samples, targetMs);
  } finally {
    await server?.stop();
    await database.drop();
  }
}

function common(env: Record<string, string | undefined>): Record<string, string | undefined> {
  return { ...env, AUTH_SECRET: "bench-cli-secret-0123456789abcdef", ALLOW_PRIVATE_WEBHOOKS: "1", LOG_LEVEL: "warn" };
}

/** `only`: the engines to measure (postgres, pglite, served); all when empty. */
export async function cliCommands(only: string[] = []): Promise<void> {
  const wanted = (name: string) => only.length === 0 || only.includes(name);
  const dir = mkdtempSync(join(tmpdir(), "svc-bench-cli-"));
  const flowFile = join(dir, "welcome.json");
  writeFileSync(
    flowFile,
    JSON.stringify({
      name: "Welcome",
      steps: [
        { type: "send", channel: "whatsapp", whatsapp: { body: "Hi {{name}}" } },
        { type: "wait", duration: "PT1H" },
        { type: "exit" },
      ],
    }),
  );
  try {
    report(
      "node -e 0",
      Array.from({ length: RUNS }, () => run(["-e", "0"], {})),
      null,
    );
    // What `npx` adds before the command starts, as the README runs it: inside the project.
    report(
      "npx svc --help, in the project",
      Array.from({ length: RUNS }, () => run(["svc", "--help"], {}, "npx", ROOT)),
      null,
    );
    if (wanted("postgres")) await engine("postgres", "postgres", false, 1000, flowFile);
    if (wanted("pglite")) await engine("embedded store, no server", "pglite", false, null, flowFile);
    if (wanted("served")) await engine("embedded store, through the server", "pglite", true, 1500, flowFile);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
