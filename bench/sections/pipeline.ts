import { execFileSync } from "node:child_process";
import { startFakeWhatsApp, type FakeWhatsApp } from "../../e2e/support/fake-whatsapp.ts";
import { ROOT, startServer } from "../../e2e/support/server.ts";
import { offer, type Arrival } from "../load.ts";
import { openWindows, peakRssMb, percentile, record, withServer, type Bench } from "../support.ts";

// The delivery pipeline on PostgreSQL against a local server speaking the Cloud API JSON with
// 20 ms reply latency: dispatch rate, pacing at a channel's cap, and queued-to-sent latency
// with the inline pipeline.

const PHONE_NUMBER_ID = "1234567890";

export function connect(bench: Bench, fake: FakeWhatsApp): void {
  execFileSync(
    process.execPath,
    [
      "bin/svc.mjs",
      "channel",
      "connect",
      "--workspace",
      bench.keys.workspace,
      "--type",
      "whatsapp",
      "--phone-number-id",
      PHONE_NUMBER_ID,
      "--access-token",
      "t",
      "--app-secret",
      "s",
      "--verify-token",
      "v",
      "--api-base-url",
      fake.url,
      "--json",
    ],
    { cwd: ROOT, env: { ...process.env, ...bench.env }, encoding: "utf8" },
  );
}

/** Accepts `count` live messages through the API (50 at a time), each to its own phone. */
export async function accept(bench: Bench, count: number): Promise<void> {
  await openWindows(bench, 10_000_000, count);
  let next = 0;
  const headers = { Authorization: `Bearer ${bench.keys.liveKey}`, "Content-Type": "application/json" };
  await Promise.all(
    Array.from({ length: 50 }, async () => {
      while (next < count) {
        const i = next++;
        const body = JSON.stringify({
          channel: "whatsapp",
          to: { phone: `+55119${String(10_000_000 + i).slice(-8)}` },
          whatsapp: { body: `m${i}` },
        });
        const res = await fetch(`${bench.url}/api/v1/messages`, { method: "POST", headers, body });
        if (res.status !== 202) throw new Error(`accept: ${res.status} ${await res.text()}`);
      }
    }),
  );
}

/**
 * Spreads the due work over `workspaces` workspaces (the bench's own and new ones): the claim
 * finds and takes work per workspace, so this measures it with many workspaces due at once.
 * Each new workspace gets a copy of the bench's channels, flows and flow versions; a job moves
 * with its subject (its message or run), that subject's history and its contact (a job whose
 * subject stayed behind would find none and be skipped, never reaching the provider or the
 * next step). One statement: the keys between the rows are checked at its end.
 */
export async function spreadJobs(bench: Bench, workspaces: number): Promise<void> {
  if (workspaces <= 1) return;
  const copy = (table: string) => `
     copy_${table} AS (
       INSERT INTO ${table}
       SELECT (jsonb_populate_record(NULL::${table}, to_jsonb(t) || jsonb_build_object('workspace_id', ws.id))).*
       FROM ${table} t, ws WHERE t.workspace_id = $2
     )`;
  const move = ([table, column, of]: string[]) => `
     move_${table} AS (UPDATE ${table} t SET workspace_id = s.ws FROM spread s WHERE t.workspace_id = $2 AND t.${column} = s.${of})`;
  await bench.sql(
    `WITH subjects AS (
       SELECT m.id, m.contact_id FROM messages m WHERE m.workspace_id = $2
       UNION ALL SELECT r.id, r.contact_id FROM flow_runs r WHERE r.workspace_id = $2
     ),
     spread AS (
       SELECT id, contact_id, $2 || '_' || (n % $1) AS ws
       FROM (SELECT *, row_number() OVER (ORDER BY id) AS n FROM subjects) x
       WHERE n % $1 <> 0
     ),
     ws AS (
       INSERT INTO workspaces (id, name) SELECT $2 || '_' || g, 'Bench ' || g FROM generate_series(1, $1::int - 1) g RETURNING id
     ),
     ${["channels", "flows", "flow_versions"].map(copy).join(",")},
     ${[
       ["contacts", "id", "contact_id"],
       ["messages", "id", "id"],
       ["message_history", "message_id", "id"],
       ["flow_runs", "id", "id"],
       ["flow_run_history", "run_id", "id"],
     ]
       .map(move)
       .join(",")}
     UPDATE jobs j SET workspace_id = s.ws FROM spread s WHERE j.workspace_id = $2 AND j.subject_id = s.id`,
    [workspaces, bench.keys.workspace],
  );
}

/** Dispatch with a cap of `rate`/s: accepted with the pipeline off, then one inline server drains the backlog. */
async function drain(
  rate: number,
  count: number,
  workspaces = 1,
): Promise<{ perSecond: Map<number, number>; first: number; last: number }> {
  const fake = await startFakeWhatsApp({ latencyMs: 20 });
  let out!: { perSecond: Map<number, number>; first: number; last: number };
  try {
    await withServer("postgres", { PIPELINE: "off", ALLOW_PRIVATE_WEBHOOKS: "1" }, async (bench) => {
      connect(bench, fake);
      await bench.sql("UPDATE channels SET rate_per_second = $1", [rate]);
      await accept(bench, count);
      await spreadJobs(bench, workspaces);
      const worker = await startServer({ ...bench.env, PIPELINE: "inline" }, { longLived: true });
      try {
        await fake.waitForRequests(count, 120_000);
      } finally {
        await worker.stop();
      }
      const times = fake.requests.map((r) => r.at).sort((a, b) => a - b);
      const perSecond = new Map<number, number>();
      for (const t of times) perSecond.set(Math.floor(t / 1000), (perSecond.get(Math.floor(t / 1000)) ?? 0) + 1);
      out = { perSecond, first: times[0]!, last: times[times.length - 1]! };
    });
  } finally {
    await fake.close();
  }
  return out;
}

export async function dispatchRate(): Promise<void> {
  const count = 6_000;
  const { first, last } = await drain(1_000, count);
  const rate = Math.round((count - 1) / ((last - first) / 1000));
  record("pipeline dispatch to the Cloud API fake (cap 1000/s)", { messages: count, per_second: rate, note: "target ≥ 1000/s" });
}

/** The same backlog, its jobs in 50 workspaces: the claim shares the slots among them. */
export async function dispatchRateWorkspaces(): Promise<void> {
  const count = 6_000;
  const { first, last } = await drain(1_000, count, 50);
  const rate = Math.round((count - 1) / ((last - first) / 1000));
  record("pipeline dispatch, jobs in 50 workspaces (cap 1000/s)", { messages: count, per_second: rate, note: "target ≥ 1000/s" });
}

/** The same backlog with the cap out of the way (5000/s): the pipeline's own capacity. */
export async function dispatchCapacity(): Promise<void> {
  const count = 6_000;
  const { first, last } = await drain(5_000, count);
  record("pipeline dispatch, channel cap 5000/s", {
    messages: count,
    per_second: Math.round((count - 1) / ((last - first) / 1000)),
    note: "one process; target ≥ 2000/s",
  });
}

export async function pacing(): Promise<void> {
  const count = 800;
  const { perSecond } = await drain(80, count);
  const seconds = [...perSecond.entries()].sort(([a], [b]) => a - b);
  const full = seconds.slice(1, -1).map(([, n]) => n); // whole seconds of backlog
  record("pacing at the default 80/s", {
    max_per_second: Math.max(...seconds.map(([, n]) => n)),
    min_full_second: Math.min(...full),
    mean_full_second: Math.round(full.reduce((s, n) => s + n, 0) / full.length),
    note: "targets: no second over 80, at least 72/s under backlog",
  });
}

/**
 * Time from `queued` to `sent` with the inline pipeline, at 200 messages per second offered:
 * evenly (one every 5 ms), then in bursts (200 at the start of each second).
 */
export async function queuedToSent(): Promise<void> {
  let rss = 0;
  for (const arrival of ["even", "bursts"] as const) rss = Math.max(rss, await queuedToSentWith(arrival));
  record("server peak RSS after pipeline load", { rss_mb: rss, note: "target < 300 MB" });
}

async function queuedToSentWith(arrival: Arrival): Promise<number> {
  const fake = await startFakeWhatsApp({ latencyMs: 20 });
  let rss = 0;
  try {
    await withServer("postgres", { PIPELINE: "inline", ALLOW_PRIVATE_WEBHOOKS: "1" }, async (bench) => {
      connect(bench, fake);
      await bench.sql("UPDATE channels SET rate_per_second = 1000");
      const from = await offerSends(bench, 20_000_000, arrival);
      await new Promise((r) => setTimeout(r, 2_000));
      const rows = await bench.sql(
        `SELECT "to", extract(epoch FROM created_at) * 1000 AS queued, extract(epoch FROM sent_at) * 1000 AS sent
         FROM messages WHERE sent_at IS NOT NULL AND created_at >= $1`,
        [from],
      );
      // Each message's time splits where it reached the fake Cloud API (its request names the phone).
      const reached = new Map(fake.requests.map((r) => [`+${r.body?.to}`, r.at]));
      const sorted = (xs: number[]) => xs.sort((a, b) => a - b);
      const ms = sorted(rows.map((r) => Number(r.sent) - Number(r.queued)));
      const split = rows.filter((r) => reached.has(r.to));
      const toProvider = sorted(split.map((r) => reached.get(r.to)! - Number(r.queued)));
      const fromProvider = sorted(split.map((r) => Number(r.sent) - reached.get(r.to)!));
      record(`queued → sent, inline pipeline (200/s offered, ${ARRIVALS[arrival]})`, {
        messages: ms.length,
        p50_ms: Math.round(percentile(ms, 50)),
        p95_ms: Math.round(percentile(ms, 95)),
        note:
          `target p95 < 100 ms; p50 / p95 queued → at the provider ${Math.round(percentile(toProvider, 50))} / ` +
          `${Math.round(percentile(toProvider, 95))} ms, provider (20 ms to answer) → sent ` +
          `${Math.round(percentile(fromProvider, 50))} / ${Math.round(percentile(fromProvider, 95))} ms`,
      });
      rss = peakRssMb(bench.server.process.pid!);
    });
  } finally {
    await fake.close();
  }
  return rss;
}

/** The latency sections' warm-up, at their load. */
const WARMUP_SECONDS = 2;

/**
 * The latency sections' load: live sends to new phones from `firstPhone` on, 200 a second
 * arriving as `arrival` says, for two seconds that warm the server up (its first requests load
 * code), then, a second later, for the ten seconds measured; when those began.
 */
export async function offerSends(bench: Bench, firstPhone: number, arrival: Arrival): Promise<Date> {
  await openWindows(bench, firstPhone, 4_000); // 200/s for 12 s, and room to spare
  let phone = firstPhone;
  const send = (seconds: number) =>
    offer({
      url: `${bench.url}/api/v1/messages`,
      headers: { Authorization: `Bearer ${bench.keys.liveKey}`, "Content-Type": "application/json" },
      rate: 200,
      seconds,
      arrival,
      body: () => JSON.stringify({ channel: "whatsapp", to: { phone: `+55119${String(phone++).slice(-8)}` }, whatsapp: { body: "hi" } }),
    });
  await send(WARMUP_SECONDS);
  await new Promise((r) => setTimeout(r, 1_000));
  const [{ from }] = await bench.sql("SELECT now() AS from");
  await send(10);
  return from as Date;
}

/** How the latency sections' requests arrive. */
export const ARRIVALS: Record<Arrival, string> = { even: "one every 5 ms", bursts: "200 at the start of each second" };
