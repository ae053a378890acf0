import { randomUUID } from "node:crypto";
import { startFakeWhatsApp, type FakeWhatsApp } from "../../e2e/support/fake-whatsapp.ts";
import { signIn } from "../../e2e/support/sign-in.ts";
import { startServer } from "../../e2e/support/server.ts";
import { load } from "../load.ts";
import { BENCH_ADMIN, percentile, record, SECONDS, WARMUP, withServer, type Bench } from "../support.ts";
import { accept, connect } from "./pipeline.ts";

// Growth (issue 11): the same figures on an empty database and on one holding
// BENCH_GROWTH_MESSAGES messages (default 2 million) across 50 workspaces, with their history
// (3 rows each) and events (2 each), in the same run. The fill is SQL (generate_series) in
// time order, as the service would have appended it, then VACUUM ANALYZE as autovacuum would.

const TOTAL = Number(process.env.BENCH_GROWTH_MESSAGES ?? 2_000_000);
const WORKSPACES = 50;
/** Messages per contact, about: a phone searched in the inspector has a handful of messages. */
const PER_CONTACT = 8;
/** Live messages drained by the pipeline to measure its claim rate: about six seconds of draining (6,000 took two, and one pause moved the figure by a tenth). */
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
    INSERT INTO messages (id, workspace_id, mode, channel, contact_id, "to", status, content, source, sent_at, delivered_at, created_at)
      SELECT ${msgId}, ${ws}, ${mode}, (CASE WHEN ${email} THEN 'email' ELSE 'whatsapp' END)::"ChannelType", ${contact},
             CASE WHEN ${email} THEN 'Person' || ${c} || '@example.com' ELSE '+5521' || (900000000 + ${c}) END,
             'delivered', '{"body": "Your code is 1234"}', 'api', ${at} + interval '1 second', ${at} + interval '3 seconds', ${at}
      FROM ${series};
    INSERT INTO message_history (message_id, at, kind, status, detail)
      SELECT ${msgId}, ${at} + k.s * interval '1 second', 'status', k.status::"MessageStatus", '{}'
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

type Figures = { search: Record<string, number[]>; usage: number[]; get: number; getP99: number; accept: number; claim: number };

/** Milliseconds of `n` sequential dashboard (tRPC) queries. */
async function timeQueries(bench: Bench, cookie: string, path: string, input: unknown, n: number): Promise<number[]> {
  const url = `${bench.url}/api/trpc/${path}${input === undefined ? "" : `?input=${encodeURIComponent(JSON.stringify(input))}`}`;
  const ms: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    const res = await fetch(url, { headers: { Cookie: cookie, "x-svc-workspace": bench.keys.workspace } });
    const body = (await res.json()) as { result?: { data: { items?: unknown[] } } };
    if (!res.ok || !body.result) throw new Error(`${path}: ${res.status} ${JSON.stringify(body)}`);
    if (path === "messages.search" && !body.result.data.items?.length)
      throw new Error(`${path} found nothing for ${JSON.stringify(input)}`);
    ms.push(performance.now() - t);
  }
  return ms.sort((a, b) => a - b);
}

/** The pipeline's claim rate: CLAIMED live messages accepted with the pipeline off, then drained by one inline worker. */
async function claimRate(bench: Bench, fake: FakeWhatsApp): Promise<number> {
  await accept(bench, CLAIMED);
  const worker = await startServer({ ...bench.env, PIPELINE: "inline" });
  try {
    await fake.waitForRequests(CLAIMED, 120_000);
  } finally {
    await worker.stop();
  }
  const times = fake.requests.map((r) => r.at).sort((a, b) => a - b);
  return Math.round((CLAIMED - 1) / ((times[times.length - 1]! - times[0]!) / 1000));
}

async function measure(bench: Bench, fake: FakeWhatsApp): Promise<Figures> {
  connect(bench, fake);
  await bench.sql("UPDATE channels SET rate_per_second = 5000");
  const claim = await claimRate(bench, fake);

  const headers = { Authorization: `Bearer ${bench.keys.testKey}`, "Content-Type": "application/json" };
  const send = async (to: object, content: object) => {
    const res = await fetch(`${bench.url}/api/v1/messages`, { method: "POST", headers, body: JSON.stringify({ ...to, ...content }) });
    if (res.status !== 202) throw new Error(`send: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { id: string }).id;
  };
  const id = await send({ channel: "whatsapp", to: { phone: phoneOf(1) } }, { whatsapp: { body: "hi" } });
  await send({ channel: "email", to: { email: emailOf(1) } }, { email: { subject: "Hi", html: "<p>Hi</p>" } });

  const cookie = await signIn(bench.url, BENCH_ADMIN.email, BENCH_ADMIN.password);
  const search = {
    phone: await timeQueries(bench, cookie, "messages.search", { q: phoneOf(1), limit: 25 }, SEARCHES),
    id: await timeQueries(bench, cookie, "messages.search", { q: id, limit: 25 }, SEARCHES),
    email: await timeQueries(bench, cookie, "messages.search", { q: emailOf(1).toUpperCase(), limit: 25 }, SEARCHES),
    newest: await timeQueries(bench, cookie, "messages.search", { limit: 25 }, SEARCHES),
  };
  const usage = await timeQueries(bench, cookie, "usage.report", undefined, 20);

  const got = await load({ url: `${bench.url}/api/v1/messages/${id}`, seconds: SECONDS, warmupSeconds: WARMUP, headers });
  let n = 0;
  const accepted = await load({
    url: `${bench.url}/api/v1/messages`,
    method: "POST",
    seconds: SECONDS,
    warmupSeconds: WARMUP,
    headers,
    setupRequest: (req) => ({
      ...req,
      headers: { ...headers, "Idempotency-Key": randomUUID() },
      body: JSON.stringify({ channel: "whatsapp", to: { phone: phoneOf((n++ % 50) + 1) }, whatsapp: { body: "Your code is 1234" } }),
    }),
  });
  return { search, usage, get: got.rps, getP99: got.p99, accept: accepted.rps, claim };
}

/** Runs `measure` on a fresh database, filled with `total` messages first when total > 0. */
async function run(total: number): Promise<Figures & { fillSeconds?: number }> {
  const fake = await startFakeWhatsApp({ latencyMs: 20 });
  let out!: Figures & { fillSeconds?: number };
  try {
    await withServer("postgres", { PIPELINE: "off", ALLOW_PRIVATE_WEBHOOKS: "1" }, async (bench) => {
      const fillSeconds = total > 0 ? await fill(bench, total) : undefined;
      out = { ...(await measure(bench, fake)), fillSeconds };
    });
  } finally {
    await fake.close();
  }
  return out;
}

export async function growth(): Promise<void> {
  const empty = await run(0);
  const full = await run(TOTAL);
  const size = `${TOTAL.toLocaleString("en")} messages`;
  const ms = (xs: number[]) => ({ p50_ms: Math.round(percentile(xs, 50) * 10) / 10, p95_ms: Math.round(percentile(xs, 95) * 10) / 10 });
  for (const [form, label] of [
    ["phone", "by phone"],
    ["id", "by message id"],
    ["email", "by e-mail"],
    ["newest", "no search, newest first"],
  ] as const) {
    record(`growth: inspector search ${label}, empty`, ms(empty.search[form]!));
    record(`growth: inspector search ${label}, ${size}`, { ...ms(full.search[form]!), note: "target p95 < 50 ms" });
  }
  record("growth: usage page query, empty", ms(empty.usage));
  record(`growth: usage page query, ${size}`, ms(full.usage));
  const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}× the empty database`;
  record("growth: GET /api/v1/messages/{id}, empty", { rps: empty.get, p99: empty.getP99 });
  record(`growth: GET /api/v1/messages/{id}, ${size}`, { rps: full.get, p99: full.getP99, note: ratio(full.get, empty.get) });
  record("growth: POST /api/v1/messages accepted, empty", { rps: empty.accept });
  record(`growth: POST /api/v1/messages accepted, ${size}`, {
    rps: full.accept,
    note: `${ratio(full.accept, empty.accept)} (target ≥ 0.9×)`,
  });
  record("growth: pipeline claim → Cloud API fake, empty", { per_second: empty.claim, messages: CLAIMED });
  record(`growth: pipeline claim → Cloud API fake, ${size}`, {
    per_second: full.claim,
    messages: CLAIMED,
    note: `${ratio(full.claim, empty.claim)} (target ≥ 0.9×); filled in ${full.fillSeconds} s`,
  });
}
