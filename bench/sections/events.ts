import { randomUUID } from "node:crypto";
import { combined, interleaved, load, roundsNote } from "../load.ts";
import { record, SECONDS, withServer, type Bench } from "../support.ts";
import { MESSAGE } from "./api.ts";

// Journeys that react (D61-D63) on PostgreSQL in `npm start`'s default configuration (the
// pipeline inline): POST /events accepted per second beside POST /messages.

const headers = (bench: Bench) => ({ Authorization: `Bearer ${bench.keys.testKey}`, "Content-Type": "application/json" });

/** The body each POST /events round sends: an event of the phone the message rounds send to. */
const EVENT = JSON.stringify({
  name: "order_paid",
  to: { phone: "+5511987654321" },
  properties: { order_id: "ord_1", total: 120 },
});

/** Seconds of one round: two endpoints, a warm-up and four rounds each (as in `growth`). */
const ROUND_SECONDS = Math.max(2, Math.round(SECONDS / 2));

/** Until nothing is due in the outbox within 30 s (the hourly sweep and waiting runs' timeouts are later): what a round left to do (a test message's `delivered` and `read` come 1 and 2 s later) is not done during the next. */
async function settle(bench: Bench): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const [{ left }] = await bench.sql("SELECT count(*)::int AS left FROM jobs WHERE run_at < now() + interval '30 seconds'");
    if (left === 0) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error("the outbox did not drain within 60 s");
}

/** One round of autocannon POSTs to `path` with `body`, each with its own Idempotency-Key, after the last round's work is done. */
const round = (bench: Bench, path: string, body: string) => async () => {
  await settle(bench);
  return load({
    url: `${bench.url}/api/v1${path}`,
    method: "POST",
    seconds: ROUND_SECONDS,
    warmupSeconds: 1,
    headers: headers(bench),
    body,
    setupRequest: (req) => ({ ...req, headers: { ...headers(bench), "Idempotency-Key": randomUUID() }, body }),
  });
};

/**
 * POST /events and POST /messages accepted per second by one server with the pipeline inline,
 * in the same load (autocannon, 50 connections, a test key, a fresh Idempotency-Key each, one
 * phone) and in interleaved rounds, so that the machine's drift falls on both. The messages'
 * rounds include their pipeline work (each test message's simulated `sent`); their later
 * steps are drained before the next round.
 */
export async function eventAcceptance(): Promise<void> {
  await withServer("postgres", { PIPELINE: "inline" }, async (bench) => {
    const rounds = await interleaved(round(bench, "/events", EVENT), round(bench, "/messages", MESSAGE));
    const [events, messages] = [combined(rounds.a), combined(rounds.b)];
    record("POST /api/v1/messages accepted, pipeline inline, beside /events", { ...messages, note: roundsNote(rounds.b) });
    record("POST /api/v1/events accepted, pipeline inline (default)", {
      ...events,
      note: `${(events.rps / messages.rps).toFixed(2)}× POST /messages (target ≥ 0.8×); ${roundsNote(rounds.a)}`,
    });
  });
}
