import { randomUUID } from "node:crypto";
import pg from "pg";
import { Agent, request } from "undici";
import { combined, interleaved, load, roundsNote } from "../load.ts";
import { percentile, record, SECONDS, withServer, type Bench } from "../support.ts";
import { MESSAGE } from "./api.ts";
import { importFlow } from "./flows.ts";

// Journeys that react (D61-D63) on PostgreSQL in `npm start`'s default configuration (the
// pipeline inline): POST /events accepted per second beside POST /messages, and the time from
// an event's answer to the waiting run it wakes taking its `on_event` path.

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

/**
 * POST /events accepted per second when each event starts a run (D62): an active flow is
 * triggered by `order_paid` (with a `where` and a key from the event, so every event, of its
 * own order id, enrolls), whose run then waits a day. Same load as `events`, interleaved with
 * events no flow is triggered by. The answer names the run it started, so the enrollment is
 * part of the accept.
 */
export async function triggeredEventAcceptance(): Promise<void> {
  await withServer("postgres", { PIPELINE: "inline" }, async (bench) => {
    importFlow(bench, {
      name: "Paid orders",
      trigger: { event: "order_paid", where: { property: "total", gte: 100 }, key: "{{event.order_id}}" },
      steps: [{ type: "wait", duration: "P1D" }],
    });
    const triggering = async () => {
      await settle(bench);
      return load({
        url: `${bench.url}/api/v1/events`,
        method: "POST",
        seconds: ROUND_SECONDS,
        warmupSeconds: 1,
        headers: headers(bench),
        body: EVENT,
        setupRequest: (req) => ({
          ...req,
          headers: { ...headers(bench), "Idempotency-Key": randomUUID() },
          body: JSON.stringify({ name: "order_paid", to: { phone: "+5511987654321" }, properties: { order_id: randomUUID(), total: 120 } }),
        }),
      });
    };
    const rounds = await interleaved(triggering, round(bench, "/events", EVENT.replace("order_paid", "order_seen")));
    const [started, plain] = [combined(rounds.a), combined(rounds.b)];
    await settle(bench);
    const [{ runs }] = await bench.sql("SELECT count(*)::int AS runs FROM flow_runs");
    record("POST /api/v1/events accepted, no flow triggered, beside triggering events", { ...plain, note: roundsNote(rounds.b) });
    record("POST /api/v1/events accepted, each starting a run", {
      ...started,
      note: `${(started.rps / plain.rps).toFixed(2)}× untriggered events; ${runs} runs started; ${roundsNote(rounds.a)}`,
    });
  });
}

/** Runs waiting in a `wait_for` step while events are recorded. */
const WAITING = Number(process.env.BENCH_WAITING_RUNS ?? 10_000);
/** Events a second offered to them, evenly, and how many of them are measured (after a warm-up of 2 s at the same rate). */
const WAKE_RATE = 50;
const WAKES = 400;
const WAKE_WARMUP = WAKE_RATE * 2;

/** One woken run in this many is also watched until its walk has committed (polled alone, every 2 ms). */
const WATCHED = 4;

/**
 * Event → run woken: WAITING runs (a contact each, enrolled through the API) wait for
 * `order_paid` with their order id; matching events are then recorded for some of them, one
 * every 20 ms, each timed from its POST /events answer arriving here to:
 * - the `woke` history entry of its run, for every event: when the engine's walk took the
 *   `on_event` path (and its `tag` step), before the batch of runs it belongs to is written
 *   and committed;
 * - the run readable as woken (its status no longer `active`: the batch committed), for one
 *   event in WATCHED, by reading that run alone every 2 ms from its event's answer on.
 * Only the woken runs are read: no reader looks at the others.
 */
export async function eventWake(): Promise<void> {
  await withServer("postgres", { PIPELINE: "inline" }, async (bench) => {
    const tag = (await (
      await fetch(`${bench.url}/api/v1/tags`, { method: "POST", headers: headers(bench), body: JSON.stringify({ name: "Paid" }) })
    ).json()) as { id: string };
    const flowId = importFlow(bench, {
      name: "Wait for payment",
      steps: [
        {
          type: "wait_for",
          event: "order_paid",
          match: { order_id: "{{order}}" },
          timeout: "P7D",
          on_event: [{ type: "tag", add: [tag.id] }],
          on_timeout: [{ type: "exit" }],
        },
      ],
    });
    const started = Date.now();
    const runs = await enroll(bench, flowId, WAITING);
    await waitingCount(bench, WAITING, 180_000);
    const enrolled = Math.round((Date.now() - started) / 1000);
    await settle(bench);

    const dispatcher = new Agent({ connections: 50 });
    const watch = new pg.Pool({ connectionString: bench.env.DATABASE_URL, max: 4 });
    try {
      await offerEvents(bench, dispatcher, runs.slice(0, WAKE_WARMUP));
      await new Promise((r) => setTimeout(r, 1_000));
      const measured = runs.slice(WAKE_WARMUP, WAKE_WARMUP + WAKES);
      const answered = await offerEvents(bench, dispatcher, measured, watch);
      const woke = await wokenAt(
        bench,
        measured.map((r) => r.id),
        30_000,
      );
      const ms = measured.flatMap((r, i) => (woke.has(r.id) ? [woke.get(r.id)! - answered[i]!.at] : [])).sort((a, b) => a - b);
      const answer = answered.map((a) => a.ms).sort((a, b) => a - b);
      const seen = answered.flatMap((a) => (a.committed === undefined ? [] : [a.committed - a.at])).sort((x, y) => x - y);
      const [{ waiting }] = await bench.sql("SELECT count(*)::int AS waiting FROM flow_runs WHERE wait_event = 'order_paid'");
      const label = `${WAITING.toLocaleString("en")} waiting, ${WAKE_RATE}/s evenly`;
      const figures = (xs: number[]) => ({
        p50_ms: Math.round(percentile(xs, 50)),
        p95_ms: Math.round(percentile(xs, 95)),
        max_ms: Math.round(xs[xs.length - 1] ?? 0),
      });
      record(`event answered → run's woke entry (${label})`, {
        events: ms.length,
        ...figures(ms),
        note:
          `target p95 < 100 ms; ${WAKES - ms.length} not woken in 30 s; POST /events answered p50 / p95 ` +
          `${Math.round(percentile(answer, 50))} / ${Math.round(percentile(answer, 95))} ms; ` +
          `${waiting} still waiting; enrolled and waiting in ${enrolled} s`,
      });
      record(`event answered → woken run committed (1 in ${WATCHED})`, {
        events: seen.length,
        ...figures(seen),
        note: `target p95 < 100 ms; ${measured.length / WATCHED - seen.length} not seen in 2 s`,
      });
    } finally {
      await dispatcher.close();
      await watch.end();
    }
  });
}

type Waiting = { id: string; contactId: string; order: string };

/** Enrolls `count` new contacts (50 requests at a time), each with its own order id; the runs. */
async function enroll(bench: Bench, flowId: string, count: number): Promise<Waiting[]> {
  const runs: Waiting[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: 50 }, async () => {
      while (next < count) {
        const i = next++;
        const order = `ord_${i}`;
        const body = JSON.stringify({ to: { phone: `+55119${String(70_000_000 + i).slice(-8)}` }, variables: { order } });
        const res = await fetch(`${bench.url}/api/v1/flows/${flowId}/enroll`, { method: "POST", headers: headers(bench), body });
        if (res.status !== 201) throw new Error(`enroll: ${res.status} ${await res.text()}`);
        const run = (await res.json()) as { id: string; contact_id: string };
        runs[i] = { id: run.id, contactId: run.contact_id, order };
      }
    }),
  );
  return runs;
}

/** Until `count` runs wait for `order_paid` (one count a quarter second, while the engine walks the new runs to their wait). */
async function waitingCount(bench: Bench, count: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [{ waiting }] = await bench.sql("SELECT count(*)::int AS waiting FROM flow_runs WHERE wait_event = 'order_paid'");
    if (waiting >= count) return;
    if (Date.now() > deadline) throw new Error(`${waiting} of ${count} runs waiting after ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

type Answered = { at: number; ms: number; committed?: number };

/**
 * One matching event per run, one every 1000/WAKE_RATE ms whatever the answers (open loop);
 * for each, when its answer arrived (epoch ms, as the server's clock: same machine) and how
 * long the request took; with `watch`, for one run in WATCHED, when it was first read woken.
 */
async function offerEvents(bench: Bench, dispatcher: Agent, runs: Waiting[], watch?: pg.Pool): Promise<Answered[]> {
  const begin = performance.now();
  const answers: Promise<Answered>[] = [];
  for (const [i, run] of runs.entries()) {
    const wait = begin + (i * 1000) / WAKE_RATE - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const body = JSON.stringify({ name: "order_paid", to: { contact_id: run.contactId }, properties: { order_id: run.order, total: 42 } });
    const sent = performance.now();
    answers.push(
      request(`${bench.url}/api/v1/events`, { method: "POST", headers: headers(bench), body, dispatcher }).then(async (res) => {
        const now = performance.now();
        await res.body.dump();
        if (res.statusCode !== 202) throw new Error(`event: ${res.statusCode}`);
        const answered: Answered = { at: performance.timeOrigin + now, ms: now - sent };
        if (watch && i % WATCHED === 0) answered.committed = await committed(watch, run.id, answered.at + 2_000);
        return answered;
      }),
    );
  }
  return Promise.all(answers);
}

/** When the run was first read no longer active (epoch ms), reading it every 2 ms until `deadline`. */
async function committed(client: pg.Pool, runId: string, deadline: number): Promise<number | undefined> {
  while (Date.now() < deadline) {
    const { rows } = await client.query<{ status: string }>("SELECT status::text AS status FROM flow_runs WHERE id = $1", [runId]);
    if (rows[0]?.status !== "active") return performance.timeOrigin + performance.now();
    await new Promise((r) => setTimeout(r, 2));
  }
  return undefined;
}

/**
 * When each of these runs took its `on_event` path (its `woke` entry, by the event), reading
 * only them, until all have or `timeoutMs` passes.
 */
async function wokenAt(bench: Bench, ids: string[], timeoutMs: number): Promise<Map<string, number>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = await bench.sql(
      `SELECT run_id, extract(epoch FROM at) * 1000 AS at FROM flow_run_history
       WHERE run_id = ANY($1::text[]) AND kind = 'woke' AND detail->>'by' = 'event'`,
      [ids],
    );
    if (rows.length >= ids.length || Date.now() > deadline) return new Map(rows.map((r) => [r.run_id as string, Number(r.at)]));
    await new Promise((r) => setTimeout(r, 500));
  }
}
