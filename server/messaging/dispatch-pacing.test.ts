import { afterEach, describe, expect, it } from "vitest";
import { openFreshDatabase } from "../../e2e/support/open-database.ts";
import { startFakeWhatsApp } from "../../e2e/support/fake-whatsapp.ts";
import { setAdopter } from "../outbox/handoff.ts";
import { readJob, type StoredJob } from "../outbox/jobs.ts";
import type { ChannelConfig } from "../providers/provider.ts";
import { dispatchMessage } from "./dispatch-message.ts";
import { acceptMessage, type NewMessage } from "./insert-messages.ts";

// D45: a provider call granted by the channel's pacing for its current second must start in
// time to land in it. A call that a busy process starts later (past `callBy`) would land in a
// second that did not grant it, over that second's cap: its job goes back until those seconds are over,
// its attempt not counted, and the provider is not called.

// The fake Cloud API listens on loopback, which calls refuse unless allowed (read once, on first use).
process.env.ALLOW_PRIVATE_WEBHOOKS = "1";

afterEach(() => setAdopter(null));

describe.each(["pglite", "postgres"] as const)("a paced provider call on %s", (engine) => {
  it("goes back until its booked seconds are over when it starts after its reservation's deadline, and goes out before it", async () => {
    const { database, drop } = await openFreshDatabase(engine, "dispatch_pacing");
    const fake = await startFakeWhatsApp();
    try {
      await database.query(`INSERT INTO workspaces (id, name) VALUES ('ws_p', 'Paced')`);
      await database.query(`INSERT INTO contacts (id, workspace_id, phone) VALUES ('ct_p', 'ws_p', '+5511900000001')`);
      await database.query(
        `INSERT INTO channels (id, workspace_id, type, name, external_id, secrets) VALUES ('ch_p', 'ws_p', 'whatsapp', 'P', '100', '')`,
      );
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
        adopt: (jobs, owner) => adopted.push(...jobs.map((job) => ({ job, owner }))),
      });
      const send = (id: string) => {
        const message: NewMessage = {
          sender: { workspaceId: "ws_p", mode: "live" },
          channel: "whatsapp",
          channelId: "ch_p",
          contactId: "ct_p",
          address: "+5511900000001",
          content: { body: "hi" },
          source: "api",
        };
        return acceptMessage(database, { id, message, at: new Date(), cause: { requestId: null, traceparent: null } });
      };
      await send("msg_late");
      await send("msg_on_time");
      const [late, onTime] = adopted.map(({ job, owner }) => ({ job: readJob(job) as Parameters<typeof dispatchMessage>[1], owner }));

      const callBy = Date.now() - 1;
      expect(await dispatchMessage(database, late!.job, late!.owner, async () => channel, callBy)).toBe("paced");
      expect(fake.requests).toHaveLength(0);
      const [row] = await database.query<{ lease_owner: string | null; attempts: number; run_at: Date; status: string }>(
        `SELECT j.lease_owner, j.attempts, j.run_at, m.status::text AS status FROM jobs j JOIN messages m ON m.id = j.subject_id WHERE j.subject_id = 'msg_late'`,
      );
      expect(row).toMatchObject({ lease_owner: null, attempts: 0, status: "queued" });
      // Back once the seconds it booked are over: its deadline was 100 ms before their end.
      expect(row!.run_at.getTime()).toBe(callBy + 100);

      expect(await dispatchMessage(database, onTime!.job, onTime!.owner, async () => channel, Date.now() + 60_000)).toBe("sent");
      expect(fake.requests).toHaveLength(1);
    } finally {
      await fake.close();
      await drop();
    }
  });
});
