import { execFileSync } from "node:child_process";
import { startFakeWhatsApp } from "../../e2e/support/fake-whatsapp.ts";
import { ROOT, startServer } from "../../e2e/support/server.ts";
import { startReceiver, type Receiver } from "../../e2e/support/webhook-receiver.ts";
import { insertEventsFrom } from "../../server/events/record-event.ts";
import type { Arrival } from "../load.ts";
import { percentile, record, withServer, type Bench } from "../support.ts";
import { ARRIVALS, connect, offerSends } from "./pipeline.ts";

// Webhook delivery on PostgreSQL to a receiver on loopback that answers 200 at once: the
// pipeline's delivery rate from a backlog, and the time from a message's state change to its
// webhook arriving with the inline pipeline.

/** Registers a webhook endpoint of `receiver` through the CLI (`svc webhook create`), for `events` (all when none). */
export function register(bench: Pick<Bench, "keys" | "env">, receiver: Receiver, events?: string, path = ""): void {
  execFileSync(
    process.execPath,
    [
      "bin/svc.mjs",
      "webhook",
      "create",
      "--workspace",
      bench.keys.workspace,
      "--url",
      `${receiver.url}${path}`,
      ...(events ? ["--events", events] : []),
      "--json",
    ],
    { cwd: ROOT, env: { ...process.env, ...bench.env }, encoding: "utf8" },
  );
}

/**
 * A backlog of 10,000 deliveries (fanned out by the events' one INSERT, as in production),
 * drained by one inline server: to one endpoint, which holds them to its 10 in flight per
 * worker (D49's cap, docs/webhooks.md), and to 10 endpoints (1,000 events each), which is what
 * the installation delivers when the cap is not what limits it.
 */
export async function webhookDeliveries(): Promise<void> {
  for (const endpoints of [1, 10]) {
    const count = 10_000;
    const receiver = await startReceiver();
    try {
      await withServer("postgres", { PIPELINE: "off", ALLOW_PRIVATE_WEBHOOKS: "1" }, async (bench) => {
        for (let i = 0; i < endpoints; i++) register(bench, receiver, undefined, `/e${i}`);
        const events = `SELECT 'evt_bench' || g, $1, 'contato.criado', 'live'::"KeyMode", jsonb_build_object('id', 'ct_bench' || g),
           NULL, now(), NULL, NULL FROM generate_series(1, $2::int) g`;
        await bench.sql(`WITH ${insertEventsFrom("e", events)} SELECT count(*) FROM e`, [bench.keys.workspace, count / endpoints]);
        const worker = await startServer({ ...bench.env, PIPELINE: "inline" }, { longLived: true });
        try {
          await receiver.waitFor(() => true, count, 120_000);
        } finally {
          await worker.stop();
        }
        const times = receiver.received.map((r) => r.at).sort((a, b) => a - b);
        record(`webhook deliveries to a local receiver, ${endpoints === 1 ? "one endpoint" : `${endpoints} endpoints`}`, {
          messages: count,
          per_second: Math.round((count - 1) / ((times[times.length - 1]! - times[0]!) / 1000)),
          note: endpoints === 1 ? "10 in flight per endpoint and worker" : "target ≥ 2000/s",
        });
      });
    } finally {
      await receiver.close();
    }
  }
}

/** Messages sent at 200/s offered; each `mensagem.enviada` is timed from its event timestamp to its arrival. */
/** Time from a state change to its webhook's arrival, at 200 messages per second offered: evenly, then in bursts. */
export async function webhookLatency(): Promise<void> {
  for (const arrival of ["even", "bursts"] as const) await webhookLatencyWith(arrival);
}

async function webhookLatencyWith(arrival: Arrival): Promise<void> {
  const fake = await startFakeWhatsApp({ latencyMs: 20 });
  const receiver = await startReceiver();
  try {
    await withServer("postgres", { PIPELINE: "inline", ALLOW_PRIVATE_WEBHOOKS: "1" }, async (bench) => {
      connect(bench, fake);
      register(bench, receiver, "mensagem.enviada");
      await bench.sql("UPDATE channels SET rate_per_second = 1000");
      // Only the webhooks of the messages accepted after the warm-up count.
      const from = (await offerSends(bench, 30_000_000, arrival)).getTime();
      // Every accepted message is sent, then its webhook arrives: wait for all of them (30 s at most).
      const deadline = Date.now() + 30_000;
      for (;;) {
        const [{ sent }] = await bench.sql("SELECT count(*)::int AS sent FROM messages WHERE sent_at IS NOT NULL");
        const [{ total }] = await bench.sql("SELECT count(*)::int AS total FROM messages");
        if ((sent === total && receiver.received.length >= sent) || Date.now() > deadline) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      const ms = receiver.received
        .filter((r) => Date.parse(r.body.timestamp as string) >= from)
        .map((r) => r.at - Date.parse(r.body.timestamp as string))
        .sort((a, b) => a - b);
      record(`state change → webhook arrival, inline pipeline (200/s offered, ${ARRIVALS[arrival]})`, {
        messages: ms.length,
        p50_ms: Math.round(percentile(ms, 50)),
        p95_ms: Math.round(percentile(ms, 95)),
        note: "target p95 < 150 ms",
      });
    });
  } finally {
    await receiver.close();
    await fake.close();
  }
}
