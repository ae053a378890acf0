import { afterEach, describe, expect, it } from "vitest";
import { openFreshDatabase } from "../../e2e/support/open-database.ts";
import { setAdopter } from "../outbox/handoff.ts";
import type { StoredJob } from "../outbox/jobs.ts";
import { pipelineWaker } from "../outbox/wake.ts";
import { loadMessage } from "./dispatch-message.ts";
import { acceptMessage, type NewMessage } from "./insert-messages.ts";

// Issue 11 (queued -> sent): a live message accepted by a process whose inline pipeline has
// room is written with its job already claimed by that pipeline's worker, leased as a claim
// would lease it (its provider call covered, D47), and handed over at commit with the row its
// dispatch reads: no claim, no read, no wake-up. Otherwise the job waits unclaimed for any
// worker, as before.

afterEach(() => setAdopter(null));

describe.each(["pglite", "postgres"] as const)("a live send's hand-off on %s", (engine) => {
  it("writes the job claimed, hands it over once committed, and leaves it to any worker when there is no room", async () => {
    const { database, drop } = await openFreshDatabase(engine, "handoff");
    try {
      await database.query(`INSERT INTO workspaces (id, name, daily_limit) VALUES ('ws_h', 'Hand-off', 3)`);
      await database.query(`INSERT INTO contacts (id, workspace_id, phone) VALUES ('ct_h', 'ws_h', '+5511900000001')`);
      const adopted: { jobs: StoredJob[]; owner: string; prepared?: unknown }[] = [];
      // What the worker begins for the leased jobs while the statement that writes them runs
      // (before their adoption, which follows its commit).
      const prepared: { ids: string[]; adoptedBefore: number }[] = [];
      let room = true;
      let offers = 0;
      setAdopter({
        offer: () => (room ? { owner: `worker#${++offers}`, leaseMs: 60_000, calls: { "message.dispatch": 15_000 } } : null),
        prepare: (jobs) => {
          const begun = { ids: jobs.map((j) => j.subject_id), adoptedBefore: adopted.length };
          prepared.push(begun);
          return begun;
        },
        adopt: (jobs, owner, begun) => adopted.push({ jobs, owner, prepared: begun }),
      });
      let wakes = 0;
      const woke = () => wakes++;
      pipelineWaker().on("wake", woke);
      const send = (id: string, mode: "live" | "test") => {
        const message: NewMessage = {
          sender: { workspaceId: "ws_h", mode },
          channel: "whatsapp",
          channelId: null,
          contactId: "ct_h",
          address: "+5511900000001",
          content: { body: "hi" },
          source: "api",
          metadata: { order: "1042" },
        };
        return acceptMessage(database, { id, message, at: new Date(), cause: { requestId: "req_h", traceparent: null } });
      };
      const job = async (id: string) => {
        const [row] = await database.query<{ lease_owner: string | null; attempts: number; lease_s: number | null }>(
          `SELECT lease_owner, attempts, extract(epoch FROM lease_until - now()) AS lease_s FROM jobs WHERE subject_id = $1`,
          [id],
        );
        return { ...row!, lease_s: row!.lease_s === null ? null : Number(row!.lease_s) };
      };

      await send("msg_h_live", "live");
      expect(adopted).toHaveLength(1);
      const [handed] = adopted[0]!.jobs;
      expect(handed).toMatchObject({ kind: "message.dispatch", subject_id: "msg_h_live", attempts: 1, cover: { callMs: 15_000 } });
      // The row handed over is the row the dispatch would read.
      expect(handed!.subject).toEqual(await loadMessage(database, "ws_h msg_h_live"));
      // Claimed in the same statement: a lease, its call and half a lease (105 s).
      const live = await job("msg_h_live");
      expect(live).toMatchObject({ lease_owner: adopted[0]!.owner, attempts: 1 });
      expect(live.lease_s).toBeGreaterThan(95);
      expect(live.lease_s).toBeLessThanOrEqual(105);
      expect(wakes).toBe(0);
      // Begun before the jobs were adopted, and handed over with them.
      expect(prepared).toEqual([{ ids: ["msg_h_live"], adoptedBefore: 0 }]);
      expect(adopted[0]!.prepared).toBe(prepared[0]);

      // A test message's job is not handed over: it waits for a claim, and the pipeline is woken.
      await send("msg_h_test", "test");
      expect(adopted).toHaveLength(1);
      expect(await job("msg_h_test")).toMatchObject({ lease_owner: null, attempts: 0, lease_s: null });
      expect(wakes).toBe(1);

      // No room in the worker: the job is written unclaimed, and the pipeline is woken.
      room = false;
      await send("msg_h_busy", "live");
      expect(adopted).toHaveLength(1);
      expect(await job("msg_h_busy")).toMatchObject({ lease_owner: null, attempts: 0, lease_s: null });
      expect(wakes).toBe(2);

      // A send that is not written (the daily limit of 3 is reached) hands nothing over.
      room = true;
      await send("msg_h_third", "live");
      await expect(send("msg_h_refused", "live")).rejects.toMatchObject({ code: "daily_limit_reached" });
      expect(adopted.map((a) => a.jobs.map((j) => j.subject_id))).toEqual([["msg_h_live"], ["msg_h_third"]]);
      // Begun for the refused one too, as its statement went out: only not adopted.
      expect(prepared.map((p) => p.ids)).toEqual([["msg_h_live"], ["msg_h_third"], ["msg_h_refused"]]);
      expect(await database.query(`SELECT id FROM jobs WHERE subject_id = 'msg_h_refused'`)).toEqual([]);
      pipelineWaker().off("wake", woke);
    } finally {
      await drop();
    }
  });

  it("hands each message of a batch written again message by message over once, with the job that was written", async () => {
    const { database, drop } = await openFreshDatabase(engine, "handoff_alone");
    try {
      await database.query(`INSERT INTO workspaces (id, name) VALUES ('ws_h', 'Hand-off')`);
      await database.query(`INSERT INTO contacts (id, workspace_id, phone) VALUES ('ct_h', 'ws_h', '+5511900000001')`);
      const adopted: StoredJob[] = [];
      setAdopter({
        offer: () => ({ owner: "worker#1", leaseMs: 60_000, calls: { "message.dispatch": 15_000 } }),
        prepare: () => undefined,
        adopt: (jobs) => adopted.push(...jobs),
      });
      const send = (id: string, contactId: string) => {
        const message: NewMessage = {
          sender: { workspaceId: "ws_h", mode: "live" },
          channel: "whatsapp",
          channelId: null,
          contactId,
          address: "+5511900000001",
          content: { body: "hi" },
          source: "api",
        };
        return acceptMessage(database, { id, message, at: new Date(), cause: { requestId: null, traceparent: null } });
      };
      // Three sends of one tick share a statement; two carry the same message id, so the
      // statement fails and each is written alone (the second of the pair fails alone).
      const outcomes = await Promise.allSettled([send("msg_a", "ct_h"), send("msg_a", "ct_h"), send("msg_b", "ct_h")]);
      expect(outcomes.map((o) => o.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
      expect(adopted.map((j) => j.subject_id).sort()).toEqual(["msg_a", "msg_b"]);
      const written = await database.query<{ id: string }>(`SELECT id FROM jobs WHERE subject_id IN ('msg_a', 'msg_b') ORDER BY id`);
      expect(adopted.map((j) => j.id).sort()).toEqual(written.map((r) => r.id));
      expect(Number((await database.query<{ n: string }>(`SELECT count AS n FROM usage_counters WHERE workspace_id = 'ws_h'`))[0]!.n)).toBe(
        2,
      );
    } finally {
      await drop();
    }
  });
});
