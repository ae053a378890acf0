import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, startServer } from "../../e2e/support/server.ts";
import { load } from "../load.ts";
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

/** POST /flows/{id}/enroll, a new phone (so a new contact) each time, with the pipeline off. */
export async function enrollments(): Promise<void> {
  await withServer("postgres", { PIPELINE: "off" }, async (bench) => {
    const flowId = await threeSteps(bench);
    let n = 0;
    const result = await load({
      url: `${bench.url}/api/v1/flows/${flowId}/enroll`,
      method: "POST",
      seconds: SECONDS,
      warmupSeconds: WARMUP,
      headers: { Authorization: `Bearer ${bench.keys.testKey}`, "Content-Type": "application/json" },
      setupRequest: (req) => ({ ...req, body: JSON.stringify({ to: { phone: `+55119${String(40_000_000 + n++).slice(-8)}` } }) }),
    });
    record("POST /flows/{id}/enroll (new contact each)", { ...result, note: "target ≥ 1000/s" });
  });
}

/** A backlog of enrolled runs on the three-step flow, walked by one inline server. */
export async function runSteps(): Promise<void> {
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
    const worker = await startServer({ ...bench.env, PIPELINE: "inline" });
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
    record("flow steps advanced (3-step flow, zero waits)", {
      messages: count,
      per_second: Math.round(span.steps / Number(span.seconds)),
      note: `${span.steps} steps; target ≥ 2000 steps/s`,
    });
  });
}
