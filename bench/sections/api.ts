import { randomUUID } from "node:crypto";
import { freshDatabase, type Engine } from "../../e2e/support/database.ts";
import { load, type LoadResult } from "../load.ts";
import { pipelineCaughtUp } from "../../e2e/support/until.ts";
import { peakRssMb as peakRss, record, results, SECONDS, seededDatabase, sql, startBaseline, WARMUP, withServer } from "../support.ts";

/** Rounds of the default configuration side by side with the baseline. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

/** The ceiling for a request that writes: node:http + pg, one insert per request. */
export async function baseline(): Promise<void> {
  const database = await freshDatabase("postgres", "bench_baseline");
  const server = await startBaseline("bench/baseline-server.ts", database.env);
  try {
    record("baseline node:http + pg, 1 insert", {
      ...(await load({ url: `${server.url}/`, seconds: SECONDS, warmupSeconds: WARMUP, headers: { Authorization: "Bearer x" } })),
    });
  } finally {
    await server.stop();
    await database.drop();
  }
}

export async function keyCheck(engine: Engine): Promise<void> {
  await withServer(engine, {}, async ({ url, keys }) => {
    const r = await load({
      url: `${url}/api/v1/`,
      seconds: SECONDS,
      warmupSeconds: WARMUP,
      headers: { Authorization: `Bearer ${keys.testKey}` },
    });
    const base = results["baseline node:http + pg, 1 insert"];
    record(`GET /api/v1/ (${engine})`, {
      ...r,
      ...(base && engine === "postgres" ? { note: `${(r.rps / Number(base.rps)).toFixed(2)}× baseline (target ≥ 0.5×)` } : {}),
    });
  });
}

/** POST /contacts upserts: a new contact per request (phone and e-mail unique). */
export async function contactUpserts(): Promise<void> {
  await withServer("postgres", {}, async ({ url, keys }) => {
    let n = 0;
    record("POST /api/v1/contacts upsert (postgres)", {
      ...(await load({
        url: `${url}/api/v1/contacts`,
        method: "POST",
        seconds: SECONDS,
        warmupSeconds: WARMUP,
        headers: { Authorization: `Bearer ${keys.testKey}`, "Content-Type": "application/json" },
        setupRequest: (req) => {
          n++;
          return {
            ...req,
            body: JSON.stringify({
              phone: `+55119${String(10_000_000 + n).slice(-8)}`,
              email: `bench${n}@example.com`,
              name: `Bench ${n}`,
            }),
          };
        },
      })),
    });
  });
}

/** The body each POST /messages round sends: a test WhatsApp message to one phone. */
export const MESSAGE = JSON.stringify({
  channel: "whatsapp",
  to: { phone: "+5511987654321" },
  whatsapp: { body: "Your code is {{code}}" },
  variables: { code: 1234 },
});

/**
 * POST /messages accepted per second with a fresh Idempotency-Key per request, next to a
 * node:http + pg server running the same statements in one transaction; then p99 at a fixed
 * offered load of half the measured maximum. Measured with the pipeline off, then in the
 * default configuration of `npm start`: the inline pipeline runs each test message's
 * simulated steps (sent, delivered, read) in the same process while requests arrive.
 */
export async function messageAcceptance(): Promise<void> {
  const headers = (key: string) => ({ Authorization: `Bearer ${key}`, "Content-Type": "application/json" });
  const maxRate = (url: string, key: string) =>
    load({
      url,
      method: "POST",
      seconds: SECONDS,
      warmupSeconds: WARMUP,
      headers: headers(key),
      body: MESSAGE,
      setupRequest: (req) => ({ ...req, headers: { ...headers(key), "Idempotency-Key": randomUUID() }, body: MESSAGE }),
    });
  let base!: LoadResult;
  await withServer("postgres", {}, async ({ url, keys, env, sql, server }) => {
    const target = `${url}/api/v1/messages`;
    const max = await maxRate(target, keys.testKey);
    const half = await load({
      url: target,
      method: "POST",
      seconds: SECONDS,
      headers: headers(keys.testKey),
      body: MESSAGE,
      setupRequest: (req) => ({ ...req, headers: { ...headers(keys.testKey), "Idempotency-Key": randomUUID() }, body: MESSAGE }),
      overallRate: Math.round(max.rps / 2),
    });

    const [contact] = await sql("SELECT id FROM contacts WHERE phone = '+5511987654321'");
    const baselineServer = await startBaseline("bench/baseline-messages.ts", { ...env, CONTACT_ID: contact.id });
    base = await maxRate(`${baselineServer.url}/`, keys.testKey);
    await baselineServer.stop();
    record("baseline node:http + pg, same statements", { ...base });
    record("POST /api/v1/messages accepted (postgres)", {
      ...max,
      note: `${(max.rps / base.rps).toFixed(2)}× baseline (target ≥ 1.0×)`,
    });
    record(`POST /api/v1/messages at ${Math.round(max.rps / 2)}/s offered`, { ...half, note: "p99 target < 100 ms" });
    record("server peak RSS after message load", { rss_mb: peakRss(server.process.pid!) });
  });
  // The default (the pipeline in worker threads beside the API), then the pipeline in the
  // server's own thread (PIPELINE_WORKERS=0, the default before issue 36), in the same run. Each
  // is measured in rounds that alternate with the baseline (on a database of its own): the machine's
  // speed changes from one minute to the next (a shared host: the baseline alone moved from 813
  // to 1,129/s in one hour), so each ratio is of two runs side by side, and the row reports the
  // median round. Before each baseline round the pipeline finishes the simulated steps its round
  // left (`read` comes 2 s after acceptance), so the baseline never shares the CPU with them.
  for (const [label, workers] of [
    ["default: in worker threads", process.env.PIPELINE_WORKERS],
    ["in the server's thread, PIPELINE_WORKERS=0", "0"],
  ] as const) {
    await withServer(
      "postgres",
      { PIPELINE: "inline", ...(workers ? { PIPELINE_WORKERS: workers } : {}) },
      async ({ url, keys, server }) => {
        // The baseline on a database of its own: its outbox rows would be this server's pipeline's work.
        const side = await seededDatabase("postgres", "bench_baseline_beside");
        const [contact] = await sql(
          side.database.env.DATABASE_URL!,
          "INSERT INTO contacts (id, workspace_id, phone) VALUES ('ct_bench_baseline', $1, '+5511987654321') RETURNING id",
          [side.keys.workspace],
        );
        const baselineServer = await startBaseline("bench/baseline-messages.ts", { ...side.database.env, CONTACT_ID: contact.id });
        const rounds: { max: LoadResult; base: LoadResult; ratio: number }[] = [];
        try {
          for (let i = 0; i < ROUNDS; i++) {
            const max = await maxRate(`${url}/api/v1/messages`, keys.testKey);
            await new Promise((r) => setTimeout(r, 2_500));
            await pipelineCaughtUp(url);
            const roundBase = await maxRate(`${baselineServer.url}/`, side.keys.testKey);
            rounds.push({ max, base: roundBase, ratio: max.rps / roundBase.rps });
          }
        } finally {
          await baselineServer.stop();
          await side.database.drop();
        }
        const median = [...rounds].sort((a, b) => a.ratio - b.ratio)[Math.floor(rounds.length / 2)]!;
        const each = rounds.map((r) => `${r.max.rps}/${r.base.rps}`).join(", ");
        record(`POST /api/v1/messages accepted, pipeline inline (${label})`, {
          ...median.max,
          note: `${median.ratio.toFixed(2)}× the baseline beside it, median of ${ROUNDS} rounds (${each}; target ≥ 1.0× by default)`,
        });
        record(`peak RSS, pipeline inline (${label})`, { rss_mb: peakRss(server.process.pid!), note: "all processes; target < 400 MB" });
      },
    );
  }
}
