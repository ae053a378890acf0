import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startPgCluster } from "../../e2e/support/pg-cluster.ts";
import { startServer } from "../../e2e/support/server.ts";
import { startReceiver, type Receiver } from "../../e2e/support/webhook-receiver.ts";
import { record, seed, sql, type Bench } from "../support.ts";
import { importFlow } from "./flows.ts";
import { register } from "./webhooks.ts";

// What one message and one journey run cost the database (docs/deploy.md, "Past one
// database"): on a PostgreSQL cluster of its own, started with PostgreSQL's default settings
// (its WAL is the cluster's: no other database writes to it), one server in the default
// configuration (pipeline inline) and one webhook endpoint subscribed to every event on a
// receiver that answers 200 at once. Around N messages (then N runs), sent at a steady rate
// after a warm-up, the database's counters (`pg_stat_database`: transactions committed, rows
// inserted, updated, deleted), the WAL written (`pg_current_wal_lsn()`, and `pg_stat_wal`'s
// full-page images) and each table's rows (`pg_stat_user_tables`), divided by N. Each window
// is one server's life, stopped once its work is delivered, so that every connection has
// reported its statistics (a busy one reports at most once a second, an idle one 10 s later);
// what a server's start and stop cost alone is taken off. The pipeline's idle polls while the
// window lasts are counted.

const MESSAGES = Number(process.env.BENCH_COST_MESSAGES ?? 300);
const RUNS = Number(process.env.BENCH_COST_RUNS ?? 200);
const WARMUP = 20;
/** Requests a second offered (evenly): a steady load, well below what one server accepts. */
const RATE = Number(process.env.BENCH_COST_RATE ?? 50);

/** The issue's targets (a third off what today's main cost, measured from outside). */
const TARGETS = { message: { rows: 26, walKb: 13.7 }, run: { rows: 42, walKb: 21.1 } };

type Counters = {
  xacts: number;
  inserted: number;
  updated: number;
  deleted: number;
  lsn: string;
  fpi: number;
  tables: Map<string, { ins: number; upd: number; hot: number; del: number }>;
};

async function counters(adminUrl: string, url: string, name: string): Promise<Counters> {
  const [db] = await sql(
    adminUrl,
    `SELECT xact_commit::bigint::text AS xacts, tup_inserted::text AS inserted, tup_updated::text AS updated, tup_deleted::text AS deleted,
       pg_current_wal_lsn()::text AS lsn, (SELECT wal_fpi::text FROM pg_stat_wal) AS fpi
     FROM pg_stat_database WHERE datname = $1`,
    [name],
  );
  const tables = await sql(
    url,
    `SELECT relname, n_tup_ins::text AS ins, n_tup_upd::text AS upd, n_tup_hot_upd::text AS hot, n_tup_del::text AS del FROM pg_stat_user_tables`,
  );
  return {
    xacts: Number(db.xacts),
    inserted: Number(db.inserted),
    updated: Number(db.updated),
    deleted: Number(db.deleted),
    lsn: db.lsn,
    fpi: Number(db.fpi),
    tables: new Map(tables.map((t) => [t.relname, { ins: Number(t.ins), upd: Number(t.upd), hot: Number(t.hot), del: Number(t.del) }])),
  };
}

/** Bytes between two WAL positions (`X/Y`, hexadecimal). */
function walBytes(from: string, to: string): number {
  const position = (lsn: string) => {
    const [hi, lo] = lsn.split("/").map((h) => BigInt(`0x${h}`));
    return (hi! << 32n) + lo!;
  };
  return Number(position(to) - position(from));
}

type Window = { before: Counters; after: Counters; count: number };

/**
 * The cost of one unit of a window's work: what the window's counters grew by, less what a
 * server's start and stop cost alone (`idle`), divided by its count; the tables' rows for the note.
 */
function perUnit(window: Window, idle: Window) {
  const { before, after, count } = window;
  const grew = (f: (c: Counters) => number) => f(after) - f(before) - (f(idle.after) - f(idle.before));
  const per = (n: number) => Math.round((n / count) * 100) / 100;
  const zero = { ins: 0, upd: 0, hot: 0, del: 0 };
  const tables = [...after.tables]
    .map(([name, t]) => {
      const b = before.tables.get(name) ?? zero;
      return { name, ins: per(t.ins - b.ins), upd: per(t.upd - b.upd), hot: per(t.hot - b.hot), del: per(t.del - b.del) };
    })
    .filter((t) => t.ins || t.upd || t.del)
    .sort((a, b) => b.ins + b.upd + b.del - (a.ins + a.upd + a.del));
  const inserted = per(grew((c) => c.inserted));
  const updated = per(grew((c) => c.updated));
  const deleted = per(grew((c) => c.deleted));
  return {
    transactions: per(grew((c) => c.xacts)),
    rows: Math.round((inserted + updated + deleted) * 100) / 100,
    inserted,
    updated,
    deleted,
    wal_kb: Math.round(((walBytes(before.lsn, after.lsn) - walBytes(idle.before.lsn, idle.after.lsn)) / 1024 / count) * 100) / 100,
    fpi: per(grew((c) => c.fpi)),
    tables: tables
      .map(
        (t) =>
          `${t.name} ${[t.ins && `+${t.ins}`, t.upd && `~${t.upd}${t.hot ? ` (${t.hot} HOT)` : ""}`, t.del && `-${t.del}`].filter(Boolean).join(" ")}`,
      )
      .join(", "),
  };
}

/** Sends `count` requests at RATE a second, evenly, each built by `body(i)`; throws on an answer that is not 2xx. */
async function offer(bench: Bench, path: string, count: number, body: (i: number) => unknown): Promise<void> {
  const start = Date.now();
  await Promise.all(
    Array.from({ length: count }, async (_, i) => {
      await new Promise((r) => setTimeout(r, start + (i * 1000) / RATE - Date.now()));
      const res = await fetch(`${bench.url}/api/v1${path}`, {
        method: "POST",
        headers: { Authorization: `Bearer ${bench.keys.testKey}`, "Content-Type": "application/json" },
        body: JSON.stringify(body(i)),
      });
      if (!res.ok) throw new Error(`POST ${path}: ${res.status} ${await res.text()}`);
    }),
  );
}

/** Waits until the receiver has had `count` requests in all (2 minutes at most). */
async function delivered(receiver: Receiver, count: number): Promise<void> {
  await receiver.waitFor(() => true, count, 120_000);
}

const phone = (i: number) => `+55119${String(60_000_000 + i).slice(-8)}`;

export async function writeCosts(): Promise<void> {
  const cluster = await startPgCluster({ durable: true });
  const receiver = await startReceiver();
  const dataDir = mkdtempSync(join(tmpdir(), "svc-bench-cost-"));
  try {
    const name = "bench_cost";
    await sql(cluster.url, `CREATE DATABASE ${name}`);
    const url = cluster.url.replace(/\/postgres$/, `/${name}`);
    const env = { DATABASE_URL: url, DATA_DIR: dataDir, ALLOW_PRIVATE_WEBHOOKS: "1" };
    const keys = seed(env);
    const read = () => counters(cluster.url, url, name);
    // Work done by a server of its own, stopped at the end: its connections end, and so report
    // every statistic they hold (a busy connection reports at most once a second, an idle one
    // 10 s later). What a server's start and stop cost alone is measured too, and taken off.
    const withBench = async (work: (bench: Bench) => Promise<void>) => {
      const server = await startServer({ ...env, PIPELINE: "inline", LOG_LEVEL: "warn" }, { longLived: true });
      try {
        await work({ url: server.url, keys, env, server, sql: (text, values) => sql(url, text, values) });
      } finally {
        await server.stop();
      }
      await new Promise((r) => setTimeout(r, 500));
    };
    const measured = async (count: number, work: (bench: Bench) => Promise<void>) => {
      const before = await read();
      await withBench(work);
      return { before, after: await read(), count };
    };

    // A message: a test WhatsApp message to a new phone (so a new contact), walked to `read`;
    // its webhooks: contato.criado, mensagem.enviada, mensagem.entregue, mensagem.lida.
    const message = (i: number) => ({
      channel: "whatsapp",
      to: { phone: phone(i) },
      whatsapp: { body: "Your code is {{code}}" },
      variables: { code: i },
    });
    // A journey run: an event triggers it for a contact that exists, then a test WhatsApp
    // message (walked to `read`), a wait of a second, a tag, the end; its webhooks:
    // mensagem.enviada, mensagem.entregue, mensagem.lida, contato.atualizado (the tag), fluxo.concluido.
    const event = (i: number) => ({ name: "order_paid", to: { phone: phone(i) }, properties: { order_id: randomUUID() } });
    await withBench(async (bench) => {
      register(bench, receiver);
      const headers = { Authorization: `Bearer ${keys.testKey}`, "Content-Type": "application/json" };
      const tag = (await (
        await fetch(`${bench.url}/api/v1/tags`, { method: "POST", headers, body: JSON.stringify({ name: "Paid" }) })
      ).json()) as { id: string };
      importFlow(bench, {
        name: "Paid orders",
        trigger: { event: "order_paid", key: "{{event.order_id}}" },
        steps: [
          { type: "send", channel: "whatsapp", whatsapp: { body: "Thanks for your order" } },
          { type: "wait", duration: "PT1S" },
          { type: "tag", add: [tag.id] },
        ],
      });
      await offer(bench, "/messages", WARMUP, message);
      await offer(bench, "/events", WARMUP, event);
      await delivered(receiver, WARMUP * 9);
    });
    const idle = await measured(1, async () => {});
    let seen = receiver.received.length;
    const messages = await measured(MESSAGES, async (bench) => {
      await offer(bench, "/messages", MESSAGES, (i) => message(WARMUP + i));
      await delivered(receiver, seen + MESSAGES * 4);
    });
    seen = receiver.received.length;
    const runs = await measured(RUNS, async (bench) => {
      await offer(bench, "/events", RUNS, (i) => event(WARMUP + (i % MESSAGES)));
      await delivered(receiver, seen + RUNS * 5);
    });
    if (process.env.BENCH_COST_WAL) {
      // Where the WAL went (pg_walinspect), by relation, for the messages' window.
      await sql(url, "CREATE EXTENSION IF NOT EXISTS pg_walinspect");
      const rows = await sql(
        url,
        `SELECT coalesce(c.relname, w.rel::text) AS rel, sum(w.bytes)::int AS bytes FROM (
           SELECT (regexp_match(block_ref, 'rel \\d+/\\d+/(\\d+)'))[1]::oid AS rel, record_length AS bytes
           FROM pg_get_wal_records_info($1::pg_lsn, $2::pg_lsn)) w
         LEFT JOIN pg_class c ON c.relfilenode = w.rel GROUP BY 1 ORDER BY 2 DESC LIMIT 30`,
        [messages.before.lsn, messages.after.lsn],
      );
      for (const r of rows) process.stderr.write(`wal ${r.rel}: ${(r.bytes / MESSAGES).toFixed(0)} B/message\n`);
    }
    for (const [label, window, target] of [
      ["cost of one message (test WhatsApp, to read, 4 webhooks)", messages, TARGETS.message],
      ["cost of one journey run (event → send, wait 1 s, tag → end; 5 webhooks)", runs, TARGETS.run],
    ] as const) {
      const c = perUnit(window, idle);
      record(label, {
        messages: window.count,
        transactions: c.transactions,
        rows: c.rows,
        inserted: c.inserted,
        updated: c.updated,
        deleted: c.deleted,
        wal_kb: c.wal_kb,
        fpi: c.fpi,
        note: `target ≤ ${target.rows} rows, ≤ ${target.walKb} KB WAL; by table: ${c.tables}`,
      });
    }
  } finally {
    await receiver.close();
    cluster.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
