import { randomUUID } from "node:crypto";
import { startFakeWhatsApp, type FakeWhatsApp } from "../../e2e/support/fake-whatsapp.ts";
import { signIn } from "../../e2e/support/sign-in.ts";
import { startServer } from "../../e2e/support/server.ts";
import { combined, interleaved, load, roundsNote, type LoadResult } from "../load.ts";
import { BENCH_ADMIN, percentile, record, SECONDS, withServer, type Bench } from "../support.ts";
import { accept, connect } from "./pipeline.ts";
import { addCounters, historyCounters, runCounters, runState, type Counter } from "../../server/flows/stat-counters.ts";

// Growth (issue 11): the same figures on an empty database and on one holding
// BENCH_GROWTH_MESSAGES messages (default 2 million) across 50 workspaces, with their history
// (3 rows each) and events (2 each), in the same run. The fill is SQL (generate_series) in
// time order, as the service would have appended it, then VACUUM ANALYZE as autovacuum would.
// Searches and the usage page are measured on each database alone; the request rates and the
// claim rate in rounds that alternate between the two, both up at once. The filled database also
// holds a journey of BENCH_GROWTH_RUNS runs (default 1 million, issue 32): its statistics
// (GET /flows/{id}/stats, D69) and the preview of an edit that moves its runs (POST
// /flows/{id}/preview, D70) are measured over HTTP, as a client calls them.

const TOTAL = Number(process.env.BENCH_GROWTH_MESSAGES ?? 2_000_000);
/** Runs of one flow on the filled database, for its statistics and an edit's preview (D69, D70). */
const RUNS = Number(process.env.BENCH_GROWTH_RUNS ?? 1_000_000);
/** Contacts the runs belong to (each in the flow ten times: it allows re-entry). */
const RUN_CONTACTS = Math.max(1, Math.floor(RUNS / 10));
/** Sequential statistics requests, and previews. */
const STATS_REQUESTS = 100;
const PREVIEWS = 5;
const WORKSPACES = 50;
/** Messages per contact, about: a phone searched in the inspector has a handful of messages. */
const PER_CONTACT = 8;
/** Live messages drained by the pipeline in each drain of its claim rate: about six seconds of draining (6,000 took two, and one pause moved the figure by a tenth). */
const CLAIMED = 18_000;
/** Sequential requests per inspector search form. */
const SEARCHES = 100;

/** The address of contact `c` of every filled workspace (phone, and e-mail as stored). */
const phoneOf = (c: number) => `+5521${900_000_000 + c}`;
const emailOf = (c: number) => `Person${c}@example.com`;

/** Fills the database: 49 more workspaces, contacts, messages, history and events. */
export async function fill(bench: Pick<Bench, "sql" | "keys">, total: number): Promise<number> {
  const started = Date.now();
  const contacts = Math.max(1, Math.floor(total / WORKSPACES / PER_CONTACT));
  // The workspace of row g (g % 50 = 0 is the benchmark's own workspace, which holds the keys).
  const ws = `CASE WHEN g % ${WORKSPACES} = 0 THEN '${bench.keys.workspace}' ELSE 'growth-' || (g % ${WORKSPACES}) END`;
  // Contact of row g: every contact gets both WhatsApp and e-mail messages (g % 4 picks the channel).
  const c = `((g / ${WORKSPACES * 4}) % ${contacts} + 1)`;
  const contact = `'ct_g' || (g % ${WORKSPACES}) || '_' || ${c}`;
  const email = `(g % 4 = 0)`;
  const at = `(now() - (g::float8 / ${total}) * interval '80 days')`;
  const mode = `(CASE WHEN g % 3 = 0 THEN 'test' ELSE 'live' END)::"KeyMode"`;
  const msgId = `'msg_g' || lpad(g::text, 10, '0')`;
  // Oldest first (g counts down), so rows land in time order as the service appends them.
  const series = `generate_series(${total}, 1, -1) g`;
  await bench.sql(`
    SET session_replication_role = replica; -- fills as a restore does: no triggers, no FK checks
    SET synchronous_commit = off;
    INSERT INTO workspaces (id, name, plan) SELECT 'growth-' || w, 'Growth ' || w, 'scale' FROM generate_series(1, ${WORKSPACES - 1}) w;
    INSERT INTO contacts (id, workspace_id, phone, email, name, created_at, updated_at)
      SELECT 'ct_g' || w || '_' || c, CASE WHEN w = 0 THEN '${bench.keys.workspace}' ELSE 'growth-' || w END,
             '+5521' || (900000000 + c), 'Person' || c || '@example.com', 'Person ' || c, now() - interval '100 days', now() - interval '100 days'
      FROM generate_series(0, ${WORKSPACES - 1}) w, generate_series(1, ${contacts}) c;
    INSERT INTO messages (id, workspace_id, mode, channel, contact_id, "to", status, content, metadata, source, sent_at, delivered_at, created_at)
      SELECT ${msgId}, ${ws}, ${mode}, (CASE WHEN ${email} THEN 'email' ELSE 'whatsapp' END)::"ChannelType", ${contact},
             CASE WHEN ${email} THEN 'Person' || ${c} || '@example.com' ELSE '+5521' || (900000000 + ${c}) END,
             'delivered', '{"body": "Your code is 1234"}', jsonb_build_object('order_id', 'ord_' || g, 'plan', 'pro'), 'api',
             ${at} + interval '1 second', ${at} + interval '3 seconds', ${at}
      FROM ${series};
    INSERT INTO message_history (workspace_id, message_id, at, kind, status, detail)
      SELECT ${ws}, ${msgId}, ${at} + k.s * interval '1 second', 'status', k.status::"MessageStatus", '{}'
      FROM ${series}, (VALUES (0, 'queued'), (1, 'sent'), (3, 'delivered')) k(s, status);
    INSERT INTO events (id, workspace_id, name, mode, data, contact_id, created_at)
      SELECT 'evt_g' || lpad(g::text, 10, '0') || k.status, ${ws}, k.name, ${mode},
             jsonb_build_object('id', ${msgId}, 'channelType', CASE WHEN ${email} THEN 'email' ELSE 'whatsapp' END, 'status', k.status, 'contact', ${contact}),
             ${contact}, ${at} + k.s * interval '1 second'
      FROM ${series}, (VALUES (1, 'sent', 'mensagem.enviada'), (3, 'delivered', 'mensagem.entregue')) k(s, status, name);
  `);
  for (const table of ["contacts", "messages", "message_history", "events"]) await bench.sql(`VACUUM ANALYZE ${table}`);
  // The fill's gigabytes of WAL leave a checkpoint to run: a database that has held its
  // history a while has flushed it, so the flush is not counted in the first figure measured.
  await bench.sql("CHECKPOINT");
  return Math.round((Date.now() - started) / 1000);
}

/**
 * The journey measured (D69, D70): wait a day, a message, wait two days, a second message. Its
 * edit, previewed with `move`: the second wait is gone and the second message says something else.
 */
const JOURNEY = {
  name: "Growth journey",
  status: "active",
  allow_reentry: true,
  steps: [
    { id: "first-wait", type: "wait", duration: "P1D" },
    { id: "hello", type: "send", channel: "whatsapp", whatsapp: { body: "Hi {{name}}, welcome!" } },
    { id: "second-wait", type: "wait", duration: "P2D" },
    { id: "nudge", type: "send", channel: "whatsapp", whatsapp: { body: "Still there, {{name}}?" } },
  ],
};
const EDITED = {
  ...JOURNEY,
  migrate: "move",
  steps: [JOURNEY.steps[0], JOURNEY.steps[1], { ...JOURNEY.steps[3], whatsapp: { body: "One last thing, {{name}}." } }],
};

/**
 * Fills the runs of a new live flow of the benchmark's workspace: RUNS runs over RUN_CONTACTS
 * contacts, one in twenty waiting in the first wait, one in twenty in the second, the others
 * completed (journeys end: a flow holding a million runs holds mostly finished ones), each with the history the engine would have written; then its statistics' counters, counted
 * by the service's rules for each kind of run and entry written (the fill bypasses the writers). Set-based SQL (generate_series), as `fill`.
 */
export async function fillRuns(bench: Bench, runs: number): Promise<{ flowId: string; seconds: number }> {
  const started = Date.now();
  // Flows are made in the dashboard (the public API reads, enrolls and previews them).
  const cookie = await signIn(bench.url, BENCH_ADMIN.email, BENCH_ADMIN.password);
  const res = await fetch(`${bench.url}/api/trpc/flows.create`, {
    method: "POST",
    headers: { Cookie: cookie, "x-svc-workspace": bench.keys.workspace, "Content-Type": "application/json" },
    body: JSON.stringify({ definition: JOURNEY }),
  });
  if (res.status !== 200) throw new Error(`create flow: ${res.status} ${await res.text()}`);
  const flowId = ((await res.json()) as { result: { data: { flow_id: string } } }).result.data.flow_id;
  const ws = bench.keys.workspace;
  // Run g: its group (0 first wait, 1 second wait, 2 and over completed: one run in ten is active) and its time.
  const group = `(g % 20)`;
  const at = `(now() - interval '20 hours' - (g::float8 / ${runs}) * interval '3 days')`;
  const run = `'run_g' || lpad(g::text, 10, '0')`;
  const series = `generate_series(${runs}, 1, -1) g`;
  await bench.sql(`
    SET session_replication_role = replica;
    SET synchronous_commit = off;
    INSERT INTO contacts (id, workspace_id, phone, name, created_at, updated_at)
      SELECT 'ct_r' || c, '${ws}', '+5531' || (900000000 + c), 'Runner ' || c, now() - interval '30 days', now() - interval '30 days'
      FROM generate_series(1, ${RUN_CONTACTS}) c;
    INSERT INTO flow_runs (id, workspace_id, flow_id, version, contact_id, mode, status, position, waiting_at, next_step_at,
                           created_at, updated_at, ended_at, reason)
      SELECT ${run}, '${ws}', '${flowId}', 1, 'ct_r' || (g % ${RUN_CONTACTS} + 1), 'live',
             (CASE WHEN ${group} >= 2 THEN 'completed' ELSE 'active' END)::"RunStatus",
             CASE ${group} WHEN 0 THEN '[1]'::jsonb WHEN 1 THEN '[3]'::jsonb ELSE '[4]'::jsonb END,
             CASE ${group} WHEN 0 THEN '[0]'::jsonb WHEN 1 THEN '[2]'::jsonb END,
             CASE ${group} WHEN 0 THEN ${at} + interval '1 day' WHEN 1 THEN ${at} + interval '3 days' END,
             ${at}, ${at}, CASE WHEN ${group} >= 2 THEN ${at} + interval '3 days' END, CASE WHEN ${group} >= 2 THEN 'end' END
      FROM ${series};
    INSERT INTO flow_run_history (workspace_id, run_id, at, kind, position, detail)
      SELECT '${ws}', ${run}, ${at} + k.s * interval '1 second', k.kind, k.position::jsonb, k.detail::jsonb
      FROM ${series}, (VALUES
        (0, 0, 'enrolled', '[0]', '{"version": 1}'),
        (1, 0, 'waiting', '[0]', '{"for": "P1D"}'),
        (2, 1, 'step', '[1]', '{"type": "send"}'),
        (3, 1, 'waiting', '[2]', '{"for": "P2D"}'),
        (4, 2, 'step', '[3]', '{"type": "send"}'),
        (5, 2, 'completed', NULL, '{"reason": "end"}')
      ) k(s, since, kind, position, detail)
      WHERE ${group} >= k.since;
  `);
  // The counters, by the service's own rules (server/flows/stat-counters.ts), for each kind of
  // run and of history entry the fill wrote, times how many it wrote.
  const counters: Counter[] = [];
  const runKinds = await bench.sql(
    `SELECT ${runState("r")}, count(*)::int AS n FROM flow_runs r WHERE r.flow_id = $1 GROUP BY 1, 2, 3, 4, 5, 6, 7`,
    [flowId],
  );
  for (const { n, ...run } of runKinds) counters.push(...runCounters(run, n));
  const entryKinds = await bench.sql(
    `SELECT h.kind, h.position, h.detail, r.workspace_id, r.flow_id, r.mode::text AS mode, r.version, count(*)::int AS n
     FROM flow_run_history h JOIN flow_runs r ON r.workspace_id = h.workspace_id AND r.id = h.run_id WHERE r.flow_id = $1
     GROUP BY 1, 2, 3, 4, 5, 6, 7`,
    [flowId],
  );
  for (const { n, ...e } of entryKinds) counters.push(...historyCounters(e, e).map((c) => ({ ...c, n })));
  await bench.sql(
    addCounters(
      `(SELECT * FROM jsonb_to_recordset($1::jsonb) AS c(workspace_id text, flow_id text, mode text, version int, path text, metric text, n bigint))`,
    ),
    [JSON.stringify(counters)],
  );
  for (const table of ["contacts", "flow_runs", "flow_run_history", "flow_step_stats"]) await bench.sql(`VACUUM ANALYZE ${table}`);
  await bench.sql("CHECKPOINT");
  return { flowId, seconds: Math.round((Date.now() - started) / 1000) };
}

/** The journey's figures: milliseconds of sequential statistics requests, and of previews of its edit. */
type JourneyFigures = { stats: number[]; preview: number[]; counts: unknown; runs: number; fillSeconds: number };

async function measureJourney(bench: Bench, runs: number): Promise<JourneyFigures> {
  const { flowId, seconds } = await fillRuns(bench, runs);
  const headers = { Authorization: `Bearer ${bench.keys.liveKey}`, "Content-Type": "application/json" };
  const timed = async (n: number, request: () => Promise<Response>, check: (body: any) => void) => {
    const ms: number[] = [];
    let last: unknown;
    for (let i = 0; i < n; i++) {
      const t = performance.now();
      const res = await request();
      const body = await res.json();
      if (res.status !== 200) throw new Error(`${res.url}: ${res.status} ${JSON.stringify(body)}`);
      ms.push(performance.now() - t);
      check(body);
      last = body;
    }
    return { ms: ms.sort((a, b) => a - b), last };
  };
  const active = Math.floor(runs / 20) + Math.floor((runs + 19) / 20);
  const stats = await timed(
    STATS_REQUESTS,
    () => fetch(`${bench.url}/api/v1/flows/${flowId}/stats`, { headers }),
    (body) => {
      if (body.runs.active + body.runs.completed !== runs) throw new Error(`stats: ${JSON.stringify(body.runs)} for ${runs} runs`);
    },
  );
  const preview = await timed(
    PREVIEWS,
    () => fetch(`${bench.url}/api/v1/flows/${flowId}/preview`, { method: "POST", headers, body: JSON.stringify(EDITED) }),
    (body) => {
      if (body.counts.runs !== active || body.runs.length !== Math.min(1_000, active))
        throw new Error(`preview: ${JSON.stringify(body.counts)}`);
    },
  );
  const figures = {
    stats: stats.ms,
    preview: preview.ms,
    counts: (preview.last as { counts: unknown }).counts,
    runs,
    fillSeconds: seconds,
  };
  // Said at once: the section's other figures take many minutes more.
  process.stderr.write(
    `bench: growth: ${runs} runs filled in ${seconds} s; stats p50 ${percentile(stats.ms, 50).toFixed(1)} ms, ` +
      `p95 ${percentile(stats.ms, 95).toFixed(1)} ms; previews ${preview.ms.map((ms) => Math.round(ms)).join(", ")} ms\n`,
  );
  return figures;
}

/** What one database answers alone: the claim rate, the inspector's searches and the usage page. */
type Figures = { search: Record<string, number[]>; usage: number[] };

/** A database measured, with what its rounds of requests need. */
type Side = { bench: Bench; fake: FakeWhatsApp; id: string; figures: Figures; fillSeconds?: number; journey?: JourneyFigures };

/** Milliseconds of `n` sequential dashboard (tRPC) queries. */
async function timeQueries(bench: Bench, cookie: string, path: string, input: unknown, n: number): Promise<number[]> {
  const url = `${bench.url}/api/trpc/${path}${input === undefined ? "" : `?input=${encodeURIComponent(JSON.stringify(input))}`}`;
  const ms: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    const res = await fetch(url, { headers: { Cookie: cookie, "x-svc-workspace": bench.keys.workspace } });
    const body = (await res.json()) as { result?: { data: unknown } };
    if (!res.ok || !body.result) throw new Error(`${path}: ${res.status} ${JSON.stringify(body)}`);
    const data = body.result.data as { items?: unknown[]; hits?: unknown[] };
    // The box finds nothing of the fill on the empty database (no names, no metadata): only the inspector must find.
    if (path === "messages.search" && !data.items?.length) throw new Error(`${path} found nothing for ${JSON.stringify(input)}`);
    ms.push(performance.now() - t);
  }
  return ms.sort((a, b) => a - b);
}

/**
 * The pipeline's claim rate: CLAIMED live messages accepted with the pipeline off, then drained
 * by one inline worker. The test messages that the accept rounds left on their simulated clocks
 * are dropped first: their jobs (about 50,000 a database) made each database's first drain write
 * ten times the WAL of the next (590 against 65 MB; 63-77 MB each once dropped).
 */
async function claimRate({ bench, fake }: Side): Promise<number> {
  fake.reset();
  await bench.sql("DELETE FROM jobs WHERE kind = 'message.simulate'");
  await accept(bench, CLAIMED);
  const worker = await startServer({ ...bench.env, PIPELINE: "inline" }, { longLived: true });
  try {
    await fake.waitForRequests(CLAIMED, 120_000);
  } finally {
    await worker.stop();
  }
  const times = fake.requests.map((r) => r.at).sort((a, b) => a - b);
  return Math.round((CLAIMED - 1) / ((times[times.length - 1]! - times[0]!) / 1000));
}

/** The figures one database answers alone; the message id its GET rounds read. */
async function measure(bench: Bench, fake: FakeWhatsApp): Promise<{ id: string; figures: Figures }> {
  connect(bench, fake);
  await bench.sql("UPDATE channels SET rate_per_second = 5000");

  const id = await send(bench, { channel: "whatsapp", to: { phone: phoneOf(1) } }, { whatsapp: { body: "hi" } });
  await send(bench, { channel: "email", to: { email: emailOf(1) } }, { email: { subject: "Hi", html: "<p>Hi</p>" } });

  const cookie = await signIn(bench.url, BENCH_ADMIN.email, BENCH_ADMIN.password);
  const search = {
    // As the messages list asks: in the mode of the top bar's switch (test: the message sent above is a test key's).
    phone: await timeQueries(bench, cookie, "messages.search", { q: phoneOf(1), mode: "test", limit: 25 }, SEARCHES),
    id: await timeQueries(bench, cookie, "messages.search", { q: id, mode: "test", limit: 25 }, SEARCHES),
    email: await timeQueries(bench, cookie, "messages.search", { q: emailOf(1).toUpperCase(), mode: "test", limit: 25 }, SEARCHES),
    newest: await timeQueries(bench, cookie, "messages.search", { mode: "test", limit: 25 }, SEARCHES),
    // The top bar's one search box (server/search/search.ts): every kind at once.
    box_id: await timeQueries(bench, cookie, "search.find", { q: id }, SEARCHES),
    box_phone: await timeQueries(
      bench,
      cookie,
      "search.find",
      { q: `+55 (21) 9${phoneOf(1).slice(6, 10)}-${phoneOf(1).slice(10)}` },
      SEARCHES,
    ),
    box_name: await timeQueries(bench, cookie, "search.find", { q: "person 1" }, SEARCHES),
    // A fill row of the benchmark's own workspace (g % 50 = 0): one message carries it.
    box_metadata: await timeQueries(bench, cookie, "search.find", { q: `ord_${WORKSPACES * 7}` }, SEARCHES),
  };
  const usage = await timeQueries(bench, cookie, "usage.report", undefined, 20);
  return { id, figures: { search, usage } };
}

const testHeaders = (bench: Bench) => ({ Authorization: `Bearer ${bench.keys.testKey}`, "Content-Type": "application/json" });

async function send(bench: Bench, to: object, content: object): Promise<string> {
  const res = await fetch(`${bench.url}/api/v1/messages`, {
    method: "POST",
    headers: testHeaders(bench),
    body: JSON.stringify({ ...to, ...content }),
  });
  if (res.status !== 202) throw new Error(`send: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { id: string }).id;
}

/** Seconds of one round of requests: two sides, a warm-up and four rounds each. */
const ROUND_SECONDS = Math.max(2, Math.round(SECONDS / 2));

/** One round of `GET /messages/{id}`. */
const getRound = (side: Side) => () =>
  load({ url: `${side.bench.url}/api/v1/messages/${side.id}`, seconds: ROUND_SECONDS, warmupSeconds: 1, headers: testHeaders(side.bench) });

/** One round of accepted sends, each with its own Idempotency-Key. */
const acceptRound = (side: Side) => () => {
  let n = 0;
  const headers = testHeaders(side.bench);
  return load({
    url: `${side.bench.url}/api/v1/messages`,
    method: "POST",
    seconds: ROUND_SECONDS,
    warmupSeconds: 1,
    headers,
    setupRequest: (req) => ({
      ...req,
      headers: { ...headers, "Idempotency-Key": randomUUID() },
      body: JSON.stringify({ channel: "whatsapp", to: { phone: phoneOf((n++ % 50) + 1) }, whatsapp: { body: "Your code is 1234" } }),
    }),
  });
};

/** A fresh database with its server (filled with `total` messages first when total > 0), measured alone, then kept up for `run`. */
async function withSide(total: number, run: (side: Side) => Promise<void>): Promise<void> {
  const fake = await startFakeWhatsApp({ latencyMs: 20 });
  try {
    await withServer("postgres", { PIPELINE: "off", ALLOW_PRIVATE_WEBHOOKS: "1" }, async (bench) => {
      const fillSeconds = total > 0 ? await fill(bench, total) : undefined;
      const journey = total > 0 && RUNS > 0 ? await measureJourney(bench, RUNS) : undefined;
      await run({ bench, fake, ...(await measure(bench, fake)), fillSeconds, journey });
    });
  } finally {
    await fake.close();
  }
}

export async function growth(): Promise<void> {
  // Both databases stay up: the request rates are taken in interleaved rounds, each database
  // answering in turn, so that the machine's drift from minute to minute falls on both.
  await withSide(0, (empty) =>
    withSide(TOTAL, async (full) => {
      const got = await interleaved(getRound(empty), getRound(full));
      const accepted = await interleaved(acceptRound(empty), acceptRound(full));
      // Four drains each, in the same order as the rounds (each drain starts its own worker, so
      // no warm-up): one drain each gave 1.01x in one run and 0.87x in the next for the same
      // code, and two each still 0.89x once, with drains of the full database at 3,003 and
      // 2,329/s while the empty one drained at 3,004 and 2,953/s.
      const drained = await interleaved(
        () => claimRate(empty),
        () => claimRate(full),
        { warmUp: false },
      );
      report(empty, full, { got, accepted, claims: { empty: drained.a, full: drained.b } });
    }),
  );
}

function report(
  empty: Side,
  full: Side,
  rounds: {
    got: { a: LoadResult[]; b: LoadResult[] };
    accepted: { a: LoadResult[]; b: LoadResult[] };
    claims: { empty: number[]; full: number[] };
  },
) {
  const size = `${TOTAL.toLocaleString("en")} messages`;
  const ms = (xs: number[]) => ({ p50_ms: Math.round(percentile(xs, 50) * 10) / 10, p95_ms: Math.round(percentile(xs, 95) * 10) / 10 });
  const [e, f] = [empty.figures, full.figures];
  for (const [form, label] of [
    ["phone", "by phone"],
    ["id", "by message id"],
    ["email", "by e-mail"],
    ["newest", "no search, newest first"],
    ["box_id", "box (search.find) by message id"],
    ["box_phone", "box (search.find) by phone, written with spaces and dashes"],
    ["box_name", "box (search.find) by contact name"],
    ["box_metadata", "box (search.find) by metadata value"],
  ] as const) {
    record(`growth: inspector search ${label}, empty`, ms(e.search[form]!));
    record(`growth: inspector search ${label}, ${size}`, { ...ms(f.search[form]!), note: "target p95 < 50 ms" });
  }
  if (full.journey) {
    const j = full.journey;
    const runs = `${j.runs.toLocaleString("en")} runs`;
    record(`growth: GET /api/v1/flows/{id}/stats, ${runs}`, { ...ms(j.stats), note: `target p95 < 50 ms; filled in ${j.fillSeconds} s` });
    record(`growth: POST /api/v1/flows/{id}/preview (move), ${runs}`, {
      p50_ms: Math.round(percentile(j.preview, 50)),
      max_ms: Math.round(j.preview[j.preview.length - 1]!),
      note: `target < 2 s; ${PREVIEWS} previews; counts ${JSON.stringify(j.counts)}`,
    });
  }
  record("growth: usage page query, empty", ms(e.usage));
  record(`growth: usage page query, ${size}`, ms(f.usage));
  const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}× the empty database`;
  const [getEmpty, getFull] = [combined(rounds.got.a), combined(rounds.got.b)];
  record("growth: GET /api/v1/messages/{id}, empty", { rps: getEmpty.rps, p99: getEmpty.p99, note: roundsNote(rounds.got.a) });
  record(`growth: GET /api/v1/messages/{id}, ${size}`, {
    rps: getFull.rps,
    p99: getFull.p99,
    note: `${ratio(getFull.rps, getEmpty.rps)}; ${roundsNote(rounds.got.b)}`,
  });
  const [acceptEmpty, acceptFull] = [combined(rounds.accepted.a), combined(rounds.accepted.b)];
  record("growth: POST /api/v1/messages accepted, empty", { rps: acceptEmpty.rps, note: roundsNote(rounds.accepted.a) });
  record(`growth: POST /api/v1/messages accepted, ${size}`, {
    rps: acceptFull.rps,
    note: `${ratio(acceptFull.rps, acceptEmpty.rps)} (target ≥ 0.9×); ${roundsNote(rounds.accepted.b)}`,
  });
  const mean = (xs: number[]) => Math.round(xs.reduce((n, x) => n + x, 0) / xs.length);
  const drains = (xs: number[]) => `drains ${xs.join(" and ")}/s`;
  const [claimEmpty, claimFull] = [mean(rounds.claims.empty), mean(rounds.claims.full)];
  record("growth: pipeline claim → Cloud API fake, empty", {
    per_second: claimEmpty,
    messages: CLAIMED,
    note: drains(rounds.claims.empty),
  });
  record(`growth: pipeline claim → Cloud API fake, ${size}`, {
    per_second: claimFull,
    messages: CLAIMED,
    note: `${ratio(claimFull, claimEmpty)} (target ≥ 0.9×); ${drains(rounds.claims.full)}; filled in ${full.fillSeconds} s`,
  });
}
