import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshDatabase } from "../../e2e/support/database.ts";
import { applyMigrations } from "../db/migrate.ts";
import { insertJobs } from "./jobs.ts";
import { JOBS_CHANNEL, listenForWork, pipelineWaker } from "./wake.ts";

// Issue 11: a job starts within milliseconds of its commit on any instance. The wake-up is a
// NOTIFY raised by the jobs table's one INSERT statement (`insertJobs`; D87: no trigger), so every
// path that inserts jobs (sends, enrolls, the events' webhook fan-out, replays) wakes the
// pipelines, and only once committed.

let database: Awaited<ReturnType<typeof freshDatabase>>;
let url: string;
const connect = async () => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client;
};
let n = 0;
/** The statement every writer of jobs uses, for one unclaimed job due `inMs` from now. */
const job = (inMs: number): [string, unknown[]] => [
  insertJobs(1),
  [
    JSON.stringify(
      [{ id: `job_wake_${++n}`, kind: "test", subject_id: "s", workspace_id: "w", channel_id: null, payload: {} }].map((row) => ({
        ...row,
        run_at: new Date(Date.now() + inMs),
        created_at: new Date(),
        request_id: null,
        traceparent: null,
        lease_owner: null,
        lease_ms: null,
      })),
    ),
  ],
];

beforeAll(async () => {
  database = await freshDatabase("postgres", "wake");
  url = database.env.DATABASE_URL!;
  await applyMigrations({ pg: { connectionString: url } });
}, 120_000);
afterAll(async () => database?.drop());

describe("the outbox's wake-up on PostgreSQL", () => {
  it("notifies once per committing transaction that inserts due jobs, at commit, and never for later jobs or a rollback", async () => {
    const listener = await connect();
    const writer = await connect();
    try {
      const heard: number[] = [];
      listener.on("notification", (m) => m.channel === JOBS_CHANNEL && heard.push(Date.now()));
      await listener.query(`LISTEN ${JOBS_CHANNEL}`);
      // Pending notifications reach a session before the answer to its next statement.
      const flush = () => listener.query("SELECT 1");

      await writer.query("BEGIN");
      await writer.query(...job(0));
      await writer.query(...job(0));
      await flush();
      expect(heard, "nothing before the commit").toHaveLength(0);
      await writer.query("COMMIT");
      await flush();
      expect(heard, "one notification for the transaction").toHaveLength(1);

      await writer.query(...job(3_600_000));
      await writer.query("BEGIN");
      await writer.query(...job(0));
      await writer.query("ROLLBACK");
      await flush();
      expect(heard, "a job due later and a rolled-back one wake nobody").toHaveLength(1);
    } finally {
      await listener.end();
      await writer.end();
    }
  });

  it("wakes the pipeline of a process that listens, and again after its connection was cut", async () => {
    const writer = await connect();
    let wakes = 0;
    const count = () => wakes++;
    pipelineWaker().on("wake", count);
    const listening = listenForWork(url);
    const listeners = async () =>
      (
        await writer.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query = $1`, [
          `LISTEN ${JOBS_CHANNEL}`,
        ])
      ).rows.map((r) => r.pid);
    // A commit by another connection wakes this process (after the wake-up of connecting,
    // which covers work committed while nobody listened).
    const wakesOnCommit = async () => {
      await expect.poll(() => wakes, { timeout: 20_000 }).toBeGreaterThan(0);
      const before = wakes;
      await writer.query(...job(0));
      await expect.poll(() => wakes, { timeout: 20_000 }).toBeGreaterThan(before);
    };
    try {
      await expect.poll(listeners, { timeout: 20_000 }).toHaveLength(1);
      await wakesOnCommit();

      const [cut] = await listeners();
      await writer.query("SELECT pg_terminate_backend($1)", [cut]);
      wakes = 0;
      await expect.poll(async () => (await listeners()).filter((pid) => pid !== cut), { timeout: 20_000 }).toHaveLength(1);
      await wakesOnCommit();
    } finally {
      pipelineWaker().off("wake", count);
      await listening.stop();
      await writer.end();
    }
  });
});
