import { afterEach, describe, expect, it } from "vitest";
import { openFreshDatabase } from "../../e2e/support/open-database.ts";
import { startFakeWhatsApp } from "../../e2e/support/fake-whatsapp.ts";
import { setAdopter, type Adopter } from "../outbox/handoff.ts";
import { readJob, type StoredJob } from "../outbox/jobs.ts";
import type { ChannelConfig } from "../providers/provider.ts";
import type { Database } from "../db/client.ts";
import { sealSecrets } from "../lib/crypto.ts";
import { pipelineWorker } from "../pipeline/run-pipeline.ts";
import { dispatchMessage } from "./dispatch-message.ts";
import { acceptMessage, type NewMessage } from "./insert-messages.ts";

// The pacing (docs/pipeline.md "Pacing"): a provider call granted by the channel's pacing for
// its current second must start in time to land in it. A call started later (past `callBy`: it
// waited for its channel's slot in the worker, or on a busy process) would land in a second
// that did not grant it, over that second's cap: it books the second it is in, or, that one
// full, its job goes back to the next, its attempt not counted, and the provider is not called.

// The fake Cloud API listens on loopback, which calls refuse unless allowed (read once, on first use).
process.env.ALLOW_PRIVATE_WEBHOOKS = "1";

afterEach(() => setAdopter(null));

/** A workspace `ws_<x>` with a contact `ct_<x>` and a WhatsApp channel `ch_<x>`. */
async function seed(database: Database, x: string, settings: Record<string, string>, secrets: string): Promise<void> {
  await database.query(`INSERT INTO workspaces (id, name) VALUES ($1, 'Paced')`, [`ws_${x}`]);
  await database.query(`INSERT INTO contacts (id, workspace_id, phone) VALUES ($1, $2, '+5511900000001')`, [`ct_${x}`, `ws_${x}`]);
  await database.query(
    `INSERT INTO channels (id, workspace_id, type, name, external_id, settings, secrets) VALUES ($1, $2, 'whatsapp', 'P', '100', $3, $4)`,
    [`ch_${x}`, `ws_${x}`, JSON.stringify(settings), secrets],
  );
}

/** A live send of that workspace's contact through its channel. */
const liveSend = (x: string): NewMessage => ({
  sender: { workspaceId: `ws_${x}`, mode: "live" },
  channel: "whatsapp",
  channelId: `ch_${x}`,
  contactId: `ct_${x}`,
  address: "+5511900000001",
  content: { body: "hi" },
  source: "api",
});

describe.each(["pglite", "postgres"] as const)("a paced provider call on %s", (engine) => {
  it("books its channel's current second again when it starts after its reservation's deadline, and goes back to the next second when that one is full", async () => {
    const { database, drop } = await openFreshDatabase(engine, "dispatch_pacing");
    const fake = await startFakeWhatsApp();
    try {
      await seed(database, "p", {}, "");
      const channel: ChannelConfig = {
        id: "ch_p",
        workspaceId: "ws_p",
        type: "whatsapp",
        externalId: "100",
        settings: { api_base_url: fake.url },
        secrets: { access_token: "t" },
        ratePerSecond: 80,
      };
      const adopted: { job: StoredJob; owner: string }[] = [];
      setAdopter({
        offer: () => ({ owner: "worker#p", leaseMs: 60_000, calls: { "message.dispatch": 15_000 } }),
        prepare: () => undefined,
        adopt: (jobs, owner) => adopted.push(...jobs.map((job) => ({ job, owner }))),
      });
      const send = (id: string) => {
        const message = liveSend("p");
        return acceptMessage(database, { id, message, at: new Date(), cause: { requestId: null, traceparent: null } });
      };
      await send("msg_late");
      await send("msg_late_full");
      await send("msg_on_time");
      const [late, lateFull, onTime] = adopted.map(({ job, owner }) => ({
        job: readJob(job) as Parameters<typeof dispatchMessage>[1],
        owner,
      }));

      // Late, with room in the channel's second: booked again, and sent. The booking must be
      // answered before its own deadline (100 ms before the second ends); begun at a random
      // instant on a loaded machine, its statements could straddle that deadline, and the call
      // would rightly go back to the next second. Begun as a second starts, they have 900 ms.
      await new Promise((resolve) => setTimeout(resolve, 1_005 - (Date.now() % 1_000)));
      expect(await dispatchMessage(database, late!.job, late!.owner, async () => channel, Date.now() - 1)).toBe("sent");
      expect(fake.requests).toHaveLength(1);

      // Late, with this second and the next few full: back at the start of the next second,
      // its attempt not counted, the provider not called.
      const second = Math.floor(Date.now() / 1000);
      for (let s = second; s < second + 5; s++)
        await database.query(
          `INSERT INTO channel_pacing (workspace_id, channel_id, second, count) VALUES ('ws_p', 'ch_p', $1, 1000)
           ON CONFLICT (workspace_id, channel_id, second) DO UPDATE SET count = 1000`,
          [s],
        );
      expect(await dispatchMessage(database, lateFull!.job, lateFull!.owner, async () => channel, Date.now() - 1)).toBe("paced");
      expect(fake.requests).toHaveLength(1);
      const [row] = await database.query<{ lease_owner: string | null; attempts: number; run_at: Date; status: string }>(
        `SELECT j.lease_owner, j.attempts, j.run_at, m.status::text AS status FROM jobs j JOIN messages m ON m.id = j.subject_id WHERE j.subject_id = 'msg_late_full'`,
      );
      expect(row).toMatchObject({ lease_owner: null, attempts: 0, status: "queued" });
      expect(row!.run_at.getTime() % 1000).toBe(0);
      expect(row!.run_at.getTime()).toBeGreaterThan(second * 1000);

      expect(await dispatchMessage(database, onTime!.job, onTime!.owner, async () => channel, Date.now() + 60_000)).toBe("sent");
      expect(fake.requests).toHaveLength(2);
    } finally {
      await fake.close();
      await drop();
    }
  });

  it("paces a hand-off's call while its message is written, and again when that reservation's deadline passed before the commit", async () => {
    const { database, drop } = await openFreshDatabase(engine, "handoff_pacing");
    const fake = await startFakeWhatsApp();
    try {
      await seed(database, "hp", { api_base_url: fake.url }, sealSecrets({ access_token: "t", app_secret: "s", verify_token: "v" }));
      // Each statement's start and end, in order.
      const seen: string[] = [];
      const name = (text: string) =>
        text.includes("channel_pacing") ? "pacing" : text.includes("INSERT INTO messages") ? "write" : "other";
      const spied: Database = {
        ...database,
        query: (async (text: string, values?: unknown[]) => {
          seen.push(`${name(text)} start`);
          try {
            return await database.query(text, values);
          } finally {
            seen.push(`${name(text)} end`);
          }
        }) as Database["query"],
      };
      const worker = pipelineWorker(spied);
      // The prepared reservation's grant and deadline, set here so that neither case depends on
      // the moment of the second it was made in: its call granted, with a deadline well ahead, or
      // already passed (as if the write had taken so long that the call could no longer start in time).
      let stale = false;
      const adopter: Adopter<ReturnType<typeof worker.prepare>> = {
        offer: () => worker.offer(),
        prepare: (jobs) => {
          const prepared = worker.prepare(jobs);
          for (const [id, r] of prepared)
            prepared.set(
              id,
              r.then((reservation) => ({ ...reservation, granted: 1, callBy: Date.now() + (stale ? -1 : 60_000) })),
            );
          return prepared;
        },
        adopt: (jobs, owner, prepared) => worker.adopt(jobs, owner, prepared),
      };
      setAdopter(adopter);
      const send = async (id: string) => {
        const message = liveSend("hp");
        seen.length = 0;
        await acceptMessage(spied, { id, message, at: new Date(), cause: { requestId: null, traceparent: null } });
        await worker.drained();
        const [row] = await database.query<{ status: string }>(`SELECT status::text AS status FROM messages WHERE id = $1`, [id]);
        return { status: row!.status, pacing: seen.filter((s) => s.startsWith("pacing")) };
      };

      // The reservation (which reads the channel too) goes out before the write has ended, and is the only one.
      expect(await send("msg_hp_1")).toEqual({ status: "sent", pacing: ["pacing start", "pacing end"] });
      expect(seen.indexOf("pacing start")).toBeLessThan(seen.indexOf("write end"));
      expect(fake.requests).toHaveLength(1);

      // The reservation made again is a real one: answered past its own deadline (the last
      // 100 ms of a second, on a loaded machine), it rightly defers the call to the next second
      // and the message stays queued meanwhile. Started at the top of a second, it has ~900 ms.
      stale = true;
      await new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000)));
      expect(await send("msg_hp_2")).toEqual({ status: "sent", pacing: ["pacing start", "pacing end", "pacing start", "pacing end"] });
      expect(seen.lastIndexOf("pacing start")).toBeGreaterThan(seen.indexOf("write end"));
      expect(fake.requests).toHaveLength(2);
    } finally {
      await fake.close();
      await drop();
    }
  });
});
