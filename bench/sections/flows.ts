import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, startServer } from "../../e2e/support/server.ts";
import { randomUUID } from "node:crypto";
import { load, type LoadResult } from "../load.ts";
import { pipelineCaughtUp } from "../../e2e/support/until.ts";
import { MESSAGE } from "./api.ts";
import { spreadJobs } from "./pipeline.ts";
import { record, SECONDS, WARMUP, withServer, type Bench } from "../support.ts";

// Journeys on PostgreSQL: enrollments accepted per second through the API, and steps the run
// engine advances per second on a three-step flow with zero waits.

/** Imports a flow document through the CLI, as a user would (`svc flow import`); its id. */
export function importFlow(bench: Bench, definition: unknown): string {
  const file = join(mkdtempSync(join(tmpdir(), "svc-bench-flow-")), "flow.json");
  writeFileSync(file, JSON.stringify(definition));
  const out = execFileSync(
    process.execPath,
    ["bin/svc.mjs", "flow", "import", "--workspace", bench.keys.workspace, "--file", file, "--status", "active", "--json"],
    { cwd: ROOT, env: { ...process.env, ...bench.env }, encoding: "utf8" },
  );
  return (JSON.parse(out) as { flow_id: string }).flow_id;
}

/** A tag, a field and a test message: three steps, no waits. */
async function threeSteps(bench: Bench): Promise<string> {
  const headers = { Authorization: `Bearer ${bench.keys.testKey}`, "Content-Type": "application/json" };
  const tag = (await (
    await fetch(`${bench.url}/api/v1/tags`, { method: "POST", headers, body: JSON.stringify({ name: "Bench" }) })
  ).json()) as { id: string };
  await fetch(`${bench.url}/api/v1/custom-fields`, { method: "POST", headers, body: JSON.stringify({ name: "Stage", key: "stage" }) });
  return importFlow(bench, {
    name: "Three steps",
    allow_reentry: true,
    steps: [
      { type: "tag", add: [tag.id] },
      { type: "set_field", key: "stage", value: "welcomed" },
      { type: "send", channel: "whatsapp", whatsapp: { body: "Hi {{name}}" } },
    ],
  });
}

/** Rounds of enrollments side by side with single sends. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

/**
 * POST /flows/{id}/enroll, a new phone (so a new contact) each time, next to single sends
 * (POST /messages, as the `messages` section sends them) on the same server, in the
 * configuration `npm start` uses (the pipeline inline, in its worker threads). The two
 * alternate in rounds, each after the pipeline has caught up with the work the last one left,
 * so each ratio is of two runs side by side (the machine's speed changes from one minute to
 * the next); the rows report the median round.
 */
export async function enrollments(): Promise<void> {
  await withServer("postgres", { PIPELINE: "inline" }, async (bench) => {
    const flowId = await threeSteps(bench);
    const headers = { Authorization: `Bearer ${bench.keys.testKey}`, "Content-Type": "application/json" };
    let n = 0;
    const rounds: { enroll: LoadResult; send: LoadResult; ratio: number; load: number }[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const send = await load({
        url: `${bench.url}/api/v1/messages`,
        method: "POST",
        seconds: SECONDS,
        warmupSeconds: WARMUP,
        headers,
        body: MESSAGE,
        setupRequest: (req) => ({ ...req, headers: { ...headers, "Idempotency-Key": randomUUID() }, body: MESSAGE }),
      });
      await new Promise((r) => setTimeout(r, 2_500)); // a test message's `read` comes 2 s after acceptance
      await pipelineCaughtUp(bench.url, 250, 120_000);
      const enroll = await load({
        url: `${bench.url}/api/v1/flows/${flowId}/enroll`,
        method: "POST",
        seconds: SECONDS,
        warmupSeconds: WARMUP,
        headers,
        setupRequest: (req) => ({ ...req, body: JSON.stringify({ to: { phone: `+55119${String(40_000_000 + n++).slice(-8)}` } }) }),
      });
      await new Promise((r) => setTimeout(r, 2_500));
      await pipelineCaughtUp(bench.url, 250, 120_000);
      // The machine's load when the round ended: other work on the cores slows both figures,
      // and a ratio measured beside a load far above the core count says little.
      rounds.push({ enroll, send, ratio: enroll.rps / send.rps, load: loadavg()[0]! });
    }
    const median = [...rounds].sort((a, b) => a.ratio - b.ratio)[Math.floor(rounds.length / 2)]!;
    const each = rounds.map((r) => `${r.enroll.rps}/${r.send.rps} at load ${r.load.toFixed(1)}`).join(", ");
    record("POST /api/v1/messages beside enrollments (default configuration)", { ...median.send });
    record("POST /flows/{id}/enroll (new contact each, default configuration)", {
      ...median.enroll,
      note: `enroll/s vs single sends/s: ${median.ratio.toFixed(2)}× (target ≥ 0.8×), median of ${ROUNDS} rounds (${each}); target ≥ 1000/s`,
    });
  });
}

/** A backlog of enrolled runs on the three-step flow, walked by one inline server. */
export async function runSteps(workspaces = 1): Promise<void> {
  const count = 3_000;
  await withServer("postgres", { PIPELINE: "off" }, async (bench) => {
    const flowId = await threeSteps(bench);
    const headers = { Authorization: `Bearer ${bench.keys.testKey}`, "Content-Type": "application/json" };
    let next = 0;
    await Promise.all(
      Array.from({ length: 50 }, async () => {
        while (next < count) {
          const i = next++;
          const body = JSON.stringify({ to: { phone: `+55119${String(50_000_000 + i).slice(-8)}` } });
          const res = await fetch(`${bench.url}/api/v1/flows/${flowId}/enroll`, { method: "POST", headers, body });
          if (res.status !== 201) throw new Error(`enroll: ${res.status} ${await res.text()}`);
        }
      }),
    );
    await spreadJobs(bench, workspaces);
    const worker = await startServer({ ...bench.env, PIPELINE: "inline" }, { longLived: true });
    try {
      const deadline = Date.now() + 120_000;
      for (;;) {
        const [{ left }] = await bench.sql("SELECT count(*)::int AS left FROM flow_runs WHERE status = 'active'");
        if (left === 0 || Date.now() > deadline) break;
        await new Promise((r) => setTimeout(r, 100));
      }
    } finally {
      await worker.stop();
    }
    const [span] = await bench.sql(
      `SELECT count(*)::int AS steps, extract(epoch FROM max(at) - min(at)) AS seconds FROM flow_run_history WHERE kind IN ('step', 'skipped')`,
    );
    record(`flow steps advanced (3-step flow, zero waits${workspaces > 1 ? `, jobs in ${workspaces} workspaces` : ""})`, {
      messages: count,
      per_second: Math.round(span.steps / Number(span.seconds)),
      note: `${span.steps} steps; target ≥ 2000 steps/s`,
    });
  });
}
