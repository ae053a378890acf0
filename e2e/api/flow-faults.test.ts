import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api } from "../support/client.ts";
import { freshDatabase, seedFixtures, queryDatabase } from "../support/database.ts";
import type { Fixtures } from "../support/fixtures.ts";
import { ROOT, START_BUDGET_MS, startServer, type RunningServer } from "../support/server.ts";
import { poll } from "../support/until.ts";

// Journeys under faults (issue "Journeys", Done means), each engine on its own database: a
// wait survives a server restart and fires on time; and (PostgreSQL) three servers walking
// the same runs never advance one run twice.
const engine = inject("api").engine;
let database: Awaited<ReturnType<typeof freshDatabase>>;
let fx: Fixtures;
const servers: RunningServer[] = [];

function svc(args: string[]): Record<string, string> {
  const out = execFileSync(process.execPath, ["bin/svc.mjs", ...args, "--json"], {
    cwd: ROOT,
    env: { ...process.env, ...database.env },
    encoding: "utf8",
  });
  return JSON.parse(out) as Record<string, string>;
}

/** Imports a flow definition with the operator CLI (the embedded store must be free). */
function importFlow(definition: unknown): string {
  const file = join(mkdtempSync(join(tmpdir(), "svc-flow-")), "flow.json");
  writeFileSync(file, JSON.stringify(definition));
  return svc(["flow", "import", "--workspace", fx.flows!.id, "--file", file, "--status", "active"]).flow_id!;
}

const query = (sql: string, params: unknown[] = []) => queryDatabase(database.env, sql, params);

async function start(): Promise<RunningServer> {
  const server = await startServer({ ...database.env, PIPELINE: "inline", PIPELINE_LEASE_SECONDS: "3" });
  servers.push(server);
  return server;
}

beforeAll(async () => {
  database = await freshDatabase(engine, `flowfault_${engine}`, { migrated: true });
  fx = seedFixtures(database.env);
});

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop("SIGKILL")));
  await database?.drop();
});

describe("journeys under faults", () => {
  it("a wait survives a server restart and fires on time", async () => {
    // 30 s: long enough for the second server to be up before the step is due on a machine
    // busy with other test files (a server start was measured at 5-12 s under load).
    const flowId = importFlow({ name: "Restart", steps: [{ type: "wait", duration: "PT30S" }, { type: "exit" }] });
    const first = await start();
    const res = await api(fx.flows!.keys.test!, first.url).post(`/flows/${flowId}/enroll`, { to: { phone: "+5511955551234" } });
    expect(res.status).toBe(201);
    await new Promise((r) => setTimeout(r, 500));
    await first.stop("SIGKILL");
    await new Promise((r) => setTimeout(r, 1_000));
    const second = await start();
    // The second server is up before the step is due (it starts in a few seconds, more on a busy machine).
    expect(Date.now() - new Date(res.body.created_at).getTime()).toBeLessThan(29_000);
    await new Promise((r) => setTimeout(r, 31_500 - (Date.now() - new Date(res.body.created_at).getTime())));
    await second.stop();
    const [run] = await query(`SELECT status::text AS status, created_at, ended_at FROM flow_runs WHERE id = $1`, [res.body.id]);
    expect(run!.status).toBe("completed");
    const late = new Date(run!.ended_at as string).getTime() - new Date(run!.created_at as string).getTime() - 30_000;
    // Due 30 s after enrollment; the inline loop polls every 250 ms when idle.
    expect(late).toBeGreaterThanOrEqual(0);
    expect(late).toBeLessThan(1_000);
  }, 120_000);

  it("runs waiting for an event still wake after a restart (D63)", async () => {
    const flowId = importFlow({
      name: "Waits across a restart",
      steps: [{ type: "wait_for", event: "order_paid", match: { order_id: "{{order}}" }, timeout: "P1D", on_timeout: [{ type: "exit" }] }],
    });
    const first = await start();
    const key = fx.flows!.keys.test!;
    const to = "+5511955554321";
    const res = await api(key, first.url).post(`/flows/${flowId}/enroll`, { to: { phone: to }, variables: { order: "ord_r" } });
    expect(res.status).toBe(201);
    const waiting = async () => (await query(`SELECT wait_event FROM flow_runs WHERE id = $1`, [res.body.id]))[0]?.wait_event;
    for (let i = 0; i < 100 && (await waiting()) !== "order_paid"; i++) await new Promise((r) => setTimeout(r, 100));
    expect(await waiting()).toBe("order_paid");
    await first.stop("SIGKILL");
    const second = await start();
    const event = await api(key, second.url).post("/events", { name: "order_paid", to: { phone: to }, properties: { order_id: "ord_r" } });
    expect(event.status).toBe(202);
    const status = async () => (await query(`SELECT status::text AS status FROM flow_runs WHERE id = $1`, [res.body.id]))[0]?.status;
    for (let i = 0; i < 100 && (await status()) === "active"; i++) await new Promise((r) => setTimeout(r, 100));
    const history = await query(`SELECT kind, detail FROM flow_run_history WHERE run_id = $1 ORDER BY at, id`, [res.body.id]);
    expect(history.map((h) => h.kind)).toEqual(["enrolled", "waiting", "woke", "path", "completed"]);
    expect(history[2]!.detail).toEqual({ by: "event", event_id: event.body.id });
    await second.stop();
  }, 120_000);

  it.runIf(engine === "postgres")(
    "three servers never advance the same run twice",
    async () => {
      const workspace = fx.flows!;
      const tag = await api(workspace.keys.test!, (await start()).url).post("/tags", { name: `Walked ${Date.now()}` });
      await Promise.all(servers.map((s) => s.stop()));
      servers.length = 0;
      const flowId = importFlow({
        name: "Concurrent",
        steps: [
          { type: "tag", add: [tag.body.id] },
          { type: "send", channel: "whatsapp", whatsapp: { body: "hi {{name}}" } },
          { type: "wait", duration: "PT1S" },
          { type: "send", channel: "whatsapp", whatsapp: { body: "again" } },
        ],
      });
      const three = await Promise.all([start(), start(), start()]);
      const runs: string[] = [];
      await Promise.all(
        Array.from({ length: 10 }, async (_, w) => {
          for (let i = w; i < 150; i += 10) {
            const server = three[i % 3]!;
            const res = await api(workspace.keys.test!, server.url).post(`/flows/${flowId}/enroll`, {
              to: { phone: `+55119555${String(i).padStart(5, "0")}` },
            });
            expect(res.status).toBe(201);
            runs.push(res.body.id);
          }
        }),
      );
      await poll(
        () => query(`SELECT count(*)::int AS n FROM flow_runs WHERE flow_id = $1 AND status = 'active'`, [flowId]),
        ([left]) => left!.n === 0,
        30_000,
        250,
      );
      const states = await query(`SELECT status::text AS status, count(*)::int AS n FROM flow_runs WHERE flow_id = $1 GROUP BY 1`, [
        flowId,
      ]);
      expect(states).toEqual([{ status: "completed", n: 150 }]);
      // Each run walked each step once: three steps, one wait, one end; and wrote two messages.
      const wrong = await query(
        `SELECT h.run_id, count(*) FILTER (WHERE kind = 'step')::int AS steps, count(*) FILTER (WHERE kind = 'waiting')::int AS waits,
         count(*) FILTER (WHERE kind = 'completed')::int AS ends
       FROM flow_run_history h JOIN flow_runs r ON r.workspace_id = h.workspace_id AND r.id = h.run_id
       WHERE r.workspace_id = $1 AND r.flow_id = $2 GROUP BY h.run_id
       HAVING count(*) FILTER (WHERE kind = 'step') <> 3 OR count(*) FILTER (WHERE kind = 'waiting') <> 1 OR count(*) FILTER (WHERE kind = 'completed') <> 1`,
        [workspace.id, flowId],
      );
      expect(wrong).toEqual([]);
      const messages = await query(
        `SELECT r.id, (SELECT count(*)::int FROM messages m WHERE m.workspace_id = r.workspace_id AND m.contact_id = r.contact_id AND m.source = 'flow') AS n
         FROM flow_runs r WHERE r.workspace_id = $1 AND r.flow_id = $2`,
        [workspace.id, flowId],
      );
      expect(messages.filter((r) => r.n !== 2)).toEqual([]);
      expect(new Set(runs).size).toBe(150);
    },
    2 * START_BUDGET_MS + 60_000,
  ); // one server, then three at once; then up to 30 s for the runs
});
