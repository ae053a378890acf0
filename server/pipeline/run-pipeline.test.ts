import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshDatabase } from "../../e2e/support/database.ts";
import { closeDb, db, type Database } from "../db/client.ts";
import { withCause } from "../observability/request-context.ts";
import { simulateStep } from "../messaging/simulate-step.ts";
import { SIMULATED_FAILURE, simulatedOutcome } from "../messaging/test-mode.ts";
import { claimJobs, DEAD_LETTER, fenceJob, insertJob, insertJobs, jobRow, readJob, type Job } from "../outbox/jobs.ts";
import { prismaHandle } from "../db/prisma-handle.ts";
import { insertEvent } from "../events/record-event.ts";
import { pipelineWorker, runPipeline } from "./run-pipeline.ts";
import { DatabaseUnreachableError } from "../db/client.ts";
import pino from "pino";
import { runtime } from "../lib/runtime.ts";

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
  // Jobs of a workspace with no row would never be claimed (D87: the claim reads the workspaces with due work first).
  await database.query(`INSERT INTO workspaces (id, name) VALUES ('ws_lease', 'Leases'), ('ws_outbox', 'Outbox')`);
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
      await database.prisma.$transaction((tx) =>
        insertJob(prismaHandle(tx), "webhook.deliver", { endpoint_id: "wh_1" }, target("whd_prisma")),
      );
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
      database.prisma.$transaction((tx) =>
        insertJob(prismaHandle(tx), "message.simulate", bad, { subjectId: "msg_refused", workspaceId: "ws_outbox" }),
      ),
    ).rejects.toThrow(/message.simulate payload/);
    expect(await database.query(`SELECT id FROM jobs WHERE subject_id = 'msg_refused'`)).toEqual([]);
  });
});

describe("a claim's lease (D47)", () => {
  // A job that calls out is leased for its kind's usual call and half a lease more, so a call
  // started soon after the claim needs no fence statement and still ends with a whole lease
  // left; a longer call, or one started later, fences as before.
  const lease = 60_000;
  const call = 15_000;
  const due = async (subjectId: string, kind: "message.dispatch" | "message.simulate") => {
    const target = { subjectId, workspaceId: "ws_lease" };
    const row = kind === "message.dispatch" ? jobRow(kind, {}, target) : jobRow(kind, { outcome: "read", step: 0 }, target);
    await database.query(insertJobs(1), [JSON.stringify([row])]);
  };
  const leaseLeft = async (subjectId: string) => {
    const [row] = await database.query<{ s: number; owner: string }>(
      `SELECT extract(epoch FROM lease_until - now()) AS s, lease_owner AS owner FROM jobs WHERE subject_id = $1`,
      [subjectId],
    );
    return { seconds: Number(row!.s), owner: row!.owner };
  };
  /** A database that fails every statement: what runs without one. */
  const unreachable = { ...database, query: () => Promise.reject(new Error("no statement expected")) } as unknown as Database;

  it("claims the service's own jobs, kept under the workspace id '' (the retention sweep), beside the workspaces' (D87)", async () => {
    await database.query(`DELETE FROM jobs`);
    await database.query(insertJobs(1), [JSON.stringify([jobRow("maintenance.sweep", {}, { subjectId: "sweep_own", workspaceId: "" })])]);
    await due("msg_own_beside", "message.simulate");
    const claimed = await claimJobs(database, "claim-own", 10, lease);
    expect(claimed.map((j) => j.subject_id).sort()).toEqual(["msg_own_beside", "sweep_own"]);
  });

  it("covers a call of the claimed kind started soon after it, with no statement", async () => {
    await database.query(`DELETE FROM jobs`); // nothing else due: the claims below take only their own jobs
    await due("msg_lease_call", "message.dispatch");
    await due("msg_lease_plain", "message.simulate");
    const claimed = await claimJobs(database, "claim-lease", 10, lease, { "message.dispatch": call });
    const job = claimed.find((j) => j.subject_id === "msg_lease_call")!;
    expect(job.cover).toMatchObject({ callMs: call, withinMs: lease / 2 });
    expect(claimed.find((j) => j.subject_id === "msg_lease_plain")!.cover).toBeUndefined();
    // The call's kind: its lease, its call and half a lease; any other kind: its lease.
    expect((await leaseLeft("msg_lease_call")).seconds).toBeGreaterThan((lease + call + lease / 2) / 1000 - 5);
    expect((await leaseLeft("msg_lease_plain")).seconds).toBeLessThanOrEqual(lease / 1000);
    expect(await fenceJob(unreachable, readJob(job), "claim-lease", call)).toBe(true);
    // The call's whole timeout and one more lease fit in the lease the claim took.
    expect((await leaseLeft("msg_lease_call")).seconds).toBeGreaterThan((call + lease) / 1000);
  });

  it("fences a longer call, and one started later than half a lease after the claim", async () => {
    await due("msg_lease_long", "message.dispatch");
    await due("msg_lease_late", "message.dispatch");
    const claimed = await claimJobs(database, "claim-late", 10, lease, { "message.dispatch": call });
    const long = readJob(claimed.find((j) => j.subject_id === "msg_lease_long")!);
    const late = readJob(claimed.find((j) => j.subject_id === "msg_lease_late")!);
    await expect(fenceJob(unreachable, long, "claim-late", 60_000)).rejects.toThrow("no statement expected");
    late.cover = { ...late.cover!, at: late.cover!.at - lease / 2 - 1 };
    await expect(fenceJob(unreachable, late, "claim-late", call)).rejects.toThrow("no statement expected");
    // Through the database: held, the lease is extended past the call and one more lease.
    expect(await fenceJob(database, long, "claim-late", 60_000)).toBe(true);
    expect((await leaseLeft("msg_lease_long")).seconds).toBeGreaterThan((60_000 + lease) / 1000 - 5);
    // Taken by another claim meanwhile: no call.
    await database.query(`UPDATE jobs SET lease_owner = 'another-claim' WHERE subject_id = 'msg_lease_late'`);
    expect(await fenceJob(database, late, "claim-late", call)).toBe(false);
    await database.query(`DELETE FROM jobs WHERE workspace_id = 'ws_lease'`);
  });
});

describe("a lost database", () => {
  // Jobs a worker holds but could not run while the database was unreachable go back as soon
  // as it answers again, not at the end of their lease (105 s for a send): a PostgreSQL restart
  // of 4 s left three sends queued for longer than that.
  /** The database, but for the statements that `fails` matches, which fail as unreachable. */
  const losing = (fails: (text: string) => boolean): Database => ({
    ...database,
    query: ((text: string, values?: unknown[]) =>
      fails(text)
        ? Promise.reject(new DatabaseUnreachableError("the database is unreachable"))
        : database.query(text, values)) as Database["query"],
  });
  const job = async (subjectId: string) =>
    (
      await database.query<{ lease_owner: string | null; attempts: number; due: boolean; last_error: string | null }>(
        `SELECT lease_owner, attempts, run_at <= now() AS due, last_error FROM jobs WHERE subject_id = $1`,
        [subjectId],
      )
    )[0];

  it("puts back the jobs handed over to a worker that could not start them", async () => {
    const row = jobRow("message.dispatch", {}, { subjectId: "msg_lost_handoff", workspaceId: "ws_lost", channelId: "ch_lost" });
    await database.query(insertJobs(1), [JSON.stringify([{ ...row, lease_owner: "handoff#1", lease_ms: 105_000 }])]);
    expect(await job("msg_lost_handoff")).toMatchObject({ lease_owner: "handoff#1", attempts: 1 });
    let down = true;
    setTimeout(() => (down = false), 300);
    const worker = pipelineWorker(losing(() => down));
    worker.adopt([{ ...row, attempts: 1 }], "handoff#1");
    await worker.drained();
    expect(await job("msg_lost_handoff")).toMatchObject({ lease_owner: null, attempts: 0, due: true });
    await database.query(`DELETE FROM jobs WHERE workspace_id = 'ws_lost'`);
  });

  it("reschedules a job whose handler failed on it once the database answers again", async () => {
    const row = jobRow("message.dispatch", {}, { subjectId: "msg_lost_read", workspaceId: "ws_lost" });
    await database.query(insertJobs(1), [JSON.stringify([{ ...row, lease_owner: "claim#1", lease_ms: 105_000 }])]);
    // The message's read fails, and so do the first tries to reschedule the job.
    let settles = 0;
    const worker = pipelineWorker(
      losing((text) => text.includes("FROM messages") || (text.includes("jsonb_to_recordset") && ++settles <= 3)),
    );
    worker.adopt([{ ...row, attempts: 1 }], "claim#1");
    await worker.drained();
    expect(settles).toBe(4);
    expect(await job("msg_lost_read")).toMatchObject({
      lease_owner: null,
      attempts: 1,
      due: false,
      last_error: expect.stringContaining("unreachable"),
    });
    await database.query(`DELETE FROM jobs WHERE workspace_id = 'ws_lost'`);
  });
});

describe("a worker with no room", () => {
  // A hand-off of more jobs than half the worker's slots leaves it with no room while none of
  // them runs yet: they are still being started. The inline loop then waits for a slot; that
  // wait ended at once whenever no job ran, so the loop spun on resolved promises, the event
  // loop never ran again, and the pipeline thread claimed nothing more (CI, session 21: 1,010
  // dispatch jobs due and none claimed for minutes).
  it("waits for its jobs to start instead of ending at once while none runs yet", async () => {
    const rows = [1, 2, 3].map((i) =>
      jobRow("message.dispatch", {}, { subjectId: `msg_room_${i}`, workspaceId: "ws_room", channelId: "ch_room" }),
    );
    await database.query(insertJobs(1), [JSON.stringify(rows.map((r) => ({ ...r, lease_owner: "handoff#room", lease_ms: 105_000 })))]);
    const worker = pipelineWorker(database, { concurrency: 2 });
    worker.adopt(
      rows.map((r) => ({ ...r, attempts: 1 })),
      "handoff#room",
    );
    expect(worker.hasRoom()).toBe(false);
    expect(worker.busy()).toBe(0);
    let told = false;
    const freed = worker.slotFreed().then(() => (told = true));
    for (let i = 0; i < 50; i++) await Promise.resolve();
    expect(told).toBe(false);
    await freed;
    await worker.drained();
    expect(worker.hasRoom()).toBe(true);
    await database.query(`DELETE FROM jobs WHERE workspace_id = 'ws_room'`);
  });
});

describe("the events' one writer", () => {
  it("fans each event out to a delivery and a job per enabled, subscribed endpoint, in its statement, through Prisma too", async () => {
    const ws = "ws_fanout";
    await database.query(`INSERT INTO workspaces (id, name) VALUES ($1, 'Fan-out')`, [ws]);
    await database.query(
      `INSERT INTO webhook_endpoints (id, workspace_id, url, events, enabled) VALUES
         ('wh_all', $1, 'https://example.com/a', '{}', true), ('wh_sub', $1, 'https://example.com/b', '{contato.criado}', true),
         ('wh_other', $1, 'https://example.com/c', '{mensagem.lida}', true), ('wh_off', $1, 'https://example.com/d', '{}', false)`,
      [ws],
    );
    const event = (name: "contato.criado" | "contato.atualizado") => ({
      workspaceId: ws,
      mode: "live" as const,
      name,
      data: { id: "ct_1" },
    });
    const cause = { requestId: "req_fanout", traceparent: null };
    const [created, updated] = await withCause(cause, async () => [
      await database.transaction((sql) => insertEvent(sql, event("contato.criado"))),
      await database.prisma.$transaction((tx) => insertEvent(prismaHandle(tx), event("contato.atualizado"))),
    ]);
    const rows = await database.query<Record<string, unknown>>(
      `SELECT d.id, d.event_id, d.endpoint_id, d.event_name, d.status, j.id AS job_id, j.kind, j.payload, j.request_id, j.attempts,
              j.lease_owner, j.run_at <= now() AS due
       FROM webhook_deliveries d JOIN jobs j ON j.subject_id = d.id WHERE d.workspace_id = $1 ORDER BY d.event_name, d.endpoint_id`,
      [ws],
    );
    const fannedOut = (eventId: string, endpoint: string, name: string) => ({
      id: expect.stringMatching(/^whd_[0-9a-z]{9}[0-9A-Za-z]{16}$/),
      event_id: eventId,
      endpoint_id: endpoint,
      event_name: name,
      status: "pending",
      job_id: expect.stringMatching(/^job_[0-9a-z]{9}[0-9A-Za-z]{16}$/),
      kind: "webhook.deliver",
      payload: { endpoint_id: endpoint },
      request_id: "req_fanout",
      attempts: 0,
      lease_owner: null,
      due: true,
    });
    expect(rows).toEqual([
      fannedOut(updated!, "wh_all", "contato.atualizado"),
      fannedOut(created!, "wh_all", "contato.criado"),
      fannedOut(created!, "wh_sub", "contato.criado"),
    ]);
    await database.query(`DELETE FROM jobs WHERE workspace_id = $1`, [ws]);
    await database.query(`DELETE FROM workspaces WHERE id = $1`, [ws]);
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

describe("test messages", () => {
  // Issue 11: the simulated steps of one claim run as one transaction (their jobs settle in one
  // statement, their status changes and events in another), with the same outcome as one by one.
  const at = new Date(Date.now() - 5_000); // accepted 5 s ago: every later step is due at once
  const accept = async (id: string, to: string) => {
    await database.query(
      `INSERT INTO messages (id, workspace_id, mode, channel, contact_id, "to", content, created_at)
       VALUES ($1, 'ws_sim', 'test', 'whatsapp', 'ct_sim', $2, '{}', $3)`,
      [id, to, at],
    );
    const row = jobRow("message.simulate", { outcome: simulatedOutcome(to), step: 0 }, { subjectId: id, workspaceId: "ws_sim", at });
    await database.query(insertJobs(1), [JSON.stringify([row])]);
  };

  beforeAll(async () => {
    await database.query(`INSERT INTO workspaces (id, name) VALUES ('ws_sim', 'Simulated')`);
    await database.query(`INSERT INTO contacts (id, workspace_id, phone) VALUES ('ct_sim', 'ws_sim', '+5511900000001')`);
  });

  it("advance together, each to its simulated outcome with its events in order", async () => {
    await accept("msg_sim_read", "+5511900000001");
    await accept("msg_sim_failed", "+15550100001");
    await accept("msg_sim_sent", "+15550100003");
    await runPipeline(database, { budgetMs: 3_000 });
    const messages = await database.query(
      `SELECT id, status::text AS status, error, error_code, sent_at IS NOT NULL AS sent, delivered_at IS NOT NULL AS delivered,
         read_at IS NOT NULL AS read, failed_at IS NOT NULL AS failed, sent_at <= delivered_at AND delivered_at <= read_at AS ordered
       FROM messages WHERE workspace_id = 'ws_sim' ORDER BY id`,
    );
    expect(messages).toEqual([
      {
        id: "msg_sim_failed",
        status: "failed",
        error: SIMULATED_FAILURE,
        error_code: "simulated_failure",
        sent: false,
        delivered: false,
        read: false,
        failed: true,
        ordered: null,
      },
      {
        id: "msg_sim_read",
        status: "read",
        error: null,
        error_code: null,
        sent: true,
        delivered: true,
        read: true,
        failed: false,
        ordered: true,
      },
      {
        id: "msg_sim_sent",
        status: "sent",
        error: null,
        error_code: null,
        sent: true,
        delivered: false,
        read: false,
        failed: false,
        ordered: null,
      },
    ]);
    const events = await database.query<{ subject: string; names: string[] }>(
      `SELECT data->>'id' AS subject, array_agg(name ORDER BY created_at) AS names FROM events WHERE workspace_id = 'ws_sim' GROUP BY 1 ORDER BY 1`,
    );
    expect(events).toEqual([
      { subject: "msg_sim_failed", names: ["mensagem.falhou"] },
      { subject: "msg_sim_read", names: ["mensagem.enviada", "mensagem.entregue", "mensagem.lida"] },
      { subject: "msg_sim_sent", names: ["mensagem.enviada"] },
    ]);
    expect(await database.query(`SELECT id FROM jobs WHERE workspace_id = 'ws_sim'`)).toEqual([]);
  });

  it("change nothing for a step whose job another claim took meanwhile", async () => {
    await accept("msg_sim_taken", "+5511900000001");
    const [stored] = await claimJobs(database, "claim-that-holds-it", 1, 60_000);
    expect(stored).toMatchObject({ subject_id: "msg_sim_taken" });
    await simulateStep(database, readJob(stored!) as Job<"message.simulate">, "an-older-claim");
    const [message] = await database.query(`SELECT status::text AS status FROM messages WHERE id = 'msg_sim_taken'`);
    expect(message).toEqual({ status: "queued" });
    expect(await database.query(`SELECT lease_owner FROM jobs WHERE subject_id = 'msg_sim_taken'`)).toEqual([
      { lease_owner: "claim-that-holds-it" },
    ]);
    expect(await database.query(`SELECT * FROM message_history WHERE message_id = 'msg_sim_taken'`)).toEqual([]);
  });
});

describe("a job that outlives its lease", () => {
  /** The warnings logged while `fn` runs. */
  const logged = async (fn: () => Promise<void>) => {
    const lines: Record<string, unknown>[] = [];
    const previous = runtime().log;
    runtime().log = pino({ level: "warn" }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    try {
      await fn();
    } finally {
      runtime().log = previous;
    }
    return lines;
  };

  // A job that waits on something without a bound of its own (here a row another transaction
  // holds) keeps its slot; once it has run a whole lease the log names it, once, so an operator
  // sees what holds the pipeline (CI saw a pipeline stall with nothing in its log).
  it("is named in the log once, by id and kind, and still ends", async () => {
    await database.query(`INSERT INTO workspaces (id, name) VALUES ('ws_overdue', 'Overdue')`);
    await database.query(`INSERT INTO contacts (id, workspace_id, phone) VALUES ('ct_overdue', 'ws_overdue', '+5511900000002')`);
    await database.query(
      `INSERT INTO messages (id, workspace_id, mode, channel, contact_id, "to", content)
       VALUES ('msg_overdue', 'ws_overdue', 'test', 'whatsapp', 'ct_overdue', '+15550100003', '{}')`,
    );
    const row = jobRow("message.simulate", { outcome: "sent", step: 0 }, { subjectId: "msg_overdue", workspaceId: "ws_overdue" });
    await database.query(insertJobs(1), [JSON.stringify([row])]);
    const lines = await logged(async () => {
      let holding!: () => void;
      const held = new Promise<void>((resolve) => (holding = resolve));
      const holder = database.transaction(async (tx) => {
        await tx(`SELECT id FROM messages WHERE workspace_id = 'ws_overdue' AND id = 'msg_overdue' FOR UPDATE`);
        holding();
        await new Promise((resolve) => setTimeout(resolve, 2_500));
      });
      await held;
      const counts = await runPipeline(database, { leaseMs: 1_000, budgetMs: 1_000 });
      await holder;
      expect(counts.errors).toBe(0);
    });
    const told = lines.filter((l) => l.msg === "a pipeline job has run longer than its lease; its slot stays taken until it ends");
    expect(told).toEqual([expect.objectContaining({ level: 40, kind: "message.simulate", workspace: "ws_overdue" })]);
    expect(told[0]!.seconds).toBeGreaterThanOrEqual(1);
    const [message] = await database.query(`SELECT status::text AS status FROM messages WHERE id = 'msg_overdue'`);
    expect(message).toEqual({ status: "sent" });
  });

  it("and a pacing that waits longer than a lease is named in the log too", async () => {
    const row = jobRow("message.dispatch", {}, { subjectId: "msg_overdue_paced", workspaceId: "ws_overdue", channelId: "ch_overdue" });
    await database.query(insertJobs(1), [JSON.stringify([row])]);
    const lines = await logged(async () => {
      let holding!: () => void;
      const held = new Promise<void>((resolve) => (holding = resolve));
      const holder = database.transaction(async (tx) => {
        await tx(`LOCK TABLE channel_pacing IN EXCLUSIVE MODE`);
        holding();
        await new Promise((resolve) => setTimeout(resolve, 2_000));
      });
      await held;
      await runPipeline(database, { leaseMs: 1_000, budgetMs: 1_000 });
      await holder;
    });
    expect(lines).toContainEqual(
      expect.objectContaining({ level: 40, jobs: 1, msg: "the pipeline has waited longer than a lease pacing and starting claimed jobs" }),
    );
  });
});
