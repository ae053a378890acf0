import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshDatabase } from "../../e2e/support/database.ts";
import { closeDb, db, type Database } from "../db/client.ts";
import { withCause } from "../observability/request-context.ts";
import { DEAD_LETTER, enqueue, insertJobs, jobRow } from "../outbox/jobs.ts";
import { runPipeline } from "./run-pipeline.ts";

// Issue 11: one write path for jobs, and a pipeline that runs each job's handler with its
// payload parsed. A job that cannot be parsed would fail the same way at every retry: it is
// set aside as a dead letter at once, never claimed again.

let drop: (() => Promise<void>) | undefined;
let database: Database;

beforeAll(async () => {
  const fresh = await freshDatabase("postgres", "outbox", { migrated: true });
  drop = fresh.drop;
  Object.assign(process.env, fresh.env, { LOG_LEVEL: "silent" });
  database = await db();
}, 120_000);

afterAll(async () => {
  await closeDb();
  await drop?.();
});

const LATER = new Date("2100-01-01T00:00:00Z");
const COLUMNS = `kind, workspace_id, channel_id, payload, run_at, created_at, request_id, traceparent, attempts, lease_owner`;

describe("the outbox's write path", () => {
  it("writes the same row through Prisma and through the driver", async () => {
    const cause = { requestId: "req_outbox", traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01" };
    const target = (subjectId: string) => ({ subjectId, workspaceId: "ws_outbox", channelId: "ch_1", runAt: LATER, at: LATER });
    await withCause(cause, async () => {
      await database.prisma.$transaction((tx) => enqueue(tx, "webhook.deliver", { endpoint_id: "wh_1" }, target("whd_prisma")));
      const row = jobRow("webhook.deliver", { endpoint_id: "wh_1" }, target("whd_driver"));
      await database.query(insertJobs(1), [JSON.stringify([row])]);
    });
    const rows = await database.query(`SELECT ${COLUMNS} FROM jobs WHERE subject_id IN ('whd_prisma', 'whd_driver') ORDER BY subject_id`);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toEqual(rows[1]);
    expect(rows[0]).toMatchObject({ payload: { endpoint_id: "wh_1" }, run_at: LATER, request_id: cause.requestId, attempts: 0 });
  });

  it("writes nothing for a payload its kind's schema refuses", async () => {
    const bad = { outcome: "lost", step: 0 } as unknown as { outcome: "read"; step: number };
    await expect(
      database.prisma.$transaction((tx) => enqueue(tx, "message.simulate", bad, { subjectId: "msg_refused", workspaceId: "ws_outbox" })),
    ).rejects.toThrow(/message.simulate payload/);
    expect(await database.query(`SELECT id FROM jobs WHERE subject_id = 'msg_refused'`)).toEqual([]);
  });
});

describe("the pipeline", () => {
  it("sets aside a job whose payload does not parse, or whose kind it does not know, and never claims it again", async () => {
    await database.query(
      `INSERT INTO jobs (id, kind, subject_id, workspace_id, payload, run_at) VALUES
         ('job_bad_payload', 'message.simulate', 'msg_x', 'ws_outbox', '{"step": 0}', now()),
         ('job_bad_kind', 'message.teleport', 'msg_y', 'ws_outbox', '{}', now())`,
    );
    const first = await runPipeline(database, { budgetMs: 2_000 });
    expect(first).toMatchObject({ dead_letter: 2 });
    const rows = await database.query<{ id: string; run_at: Date; last_error: string; lease_owner: string | null; attempts: number }>(
      `SELECT id, run_at, last_error, lease_owner, attempts FROM jobs WHERE id IN ('job_bad_payload', 'job_bad_kind') ORDER BY id`,
    );
    expect(rows).toEqual([
      {
        id: "job_bad_kind",
        run_at: DEAD_LETTER,
        last_error: 'dead letter: unknown job kind "message.teleport"',
        lease_owner: null,
        attempts: 1,
      },
      {
        id: "job_bad_payload",
        run_at: DEAD_LETTER,
        last_error: expect.stringMatching(/^dead letter: message.simulate payload: .*outcome/),
        lease_owner: null,
        attempts: 1,
      },
    ]);
    const second = await runPipeline(database, { budgetMs: 1_000 });
    expect(second.dead_letter).toBeUndefined();
  });
});
