import { load } from "../load.ts";
import { percentile, record, SECONDS, WARMUP, withServer } from "../support.ts";

// Sending at volume (issue 34): 1,000-message batches against single sends in the same run,
// and 10,000 scheduled messages due at one instant, in the default configuration (PostgreSQL,
// pipeline inline), with a test key.

const item = (i: number, sendAt?: string) => ({
  channel: "whatsapp",
  to: { phone: `+55119${String(70_000_000 + (i % 20_000)).slice(-8)}` },
  whatsapp: { body: "Your order {{order}} shipped." },
  variables: { order: String(i) },
  ...(sendAt ? { send_at: sendAt } : {}),
});

async function postBatch(url: string, key: string, messages: unknown[]): Promise<{ ms: number; accepted: number }> {
  const started = performance.now();
  const res = await fetch(`${url}/api/v1/messages/batch`, {
    method: "POST",
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
    body: JSON.stringify({ messages }),
  });
  const body = (await res.json()) as { data?: { id?: string }[] };
  if (res.status !== 200 || !body.data) throw new Error(`batch answered ${res.status}`);
  return { ms: performance.now() - started, accepted: body.data.filter((m) => m.id).length };
}

export async function batchSends(): Promise<void> {
  await withServer("postgres", { PIPELINE: "inline" }, async ({ url, keys }) => {
    const single = await load({
      url: `${url}/api/v1/messages`,
      method: "POST",
      seconds: SECONDS,
      warmupSeconds: WARMUP,
      headers: { Authorization: `Bearer ${keys.testKey}`, "Content-Type": "application/json" },
      body: JSON.stringify(item(0)),
    });
    record("POST /messages, single sends (postgres, inline)", { ...single, per_second: single.rps });

    // One client sending 1,000-message batches back to back for the same time.
    await postBatch(
      url,
      keys.testKey,
      Array.from({ length: 1_000 }, (_, i) => item(i)),
    ); // warm-up
    const latencies: number[] = [];
    let accepted = 0;
    const started = performance.now();
    const until = started + SECONDS * 1000;
    await Promise.all(
      [0].map(async () => {
        while (performance.now() < until) {
          const r = await postBatch(
            url,
            keys.testKey,
            Array.from({ length: 1_000 }, (_, i) => item(i)),
          );
          latencies.push(r.ms);
          accepted += r.accepted;
        }
      }),
    );
    const perSecond = Math.round(accepted / ((performance.now() - started) / 1000));
    latencies.sort((a, b) => a - b);
    record("POST /messages/batch, 1,000 a batch, 1 client (postgres, inline)", {
      per_second: perSecond,
      p50_ms: Math.round(percentile(latencies, 50)),
      p95_ms: Math.round(percentile(latencies, 95)),
      messages: accepted,
      note: `${latencies.length} batches, slowest ${Math.round(latencies.at(-1)!)} ms (target < 1,000 ms); ${(perSecond / single.rps).toFixed(1)}× single sends (target ≥ 3×)`,
    });
  });
  // 10,000 messages scheduled for one instant, written ahead in ten batches, on a server of
  // their own (the sends above leave a backlog of simulated steps that would come first).
  await withServer("postgres", { PIPELINE: "inline" }, async ({ url, keys, sql }) => {
    const due = new Date(Math.ceil((Date.now() + 20_000) / 1000) * 1000);
    for (let b = 0; b < 10; b++) {
      await postBatch(
        url,
        keys.testKey,
        Array.from({ length: 1_000 }, (_, i) => item(b * 1_000 + i, due.toISOString())),
      );
    }
    const ahead = due.getTime() - Date.now();
    await new Promise((r) => setTimeout(r, Math.max(0, ahead)));
    const count = async () => (await sql(`SELECT count(sent_at)::int AS sent FROM messages WHERE scheduled_at = $1`, [due]))[0].sent;
    for (let i = 0; i < 120 && (await count()) < 10_000; i++) await new Promise((r) => setTimeout(r, 500));
    const [row] = await sql(
      `SELECT count(*)::int AS total, count(sent_at)::int AS sent,
              extract(epoch FROM min(sent_at) - $1::timestamptz) * 1000 AS first_ms,
              extract(epoch FROM max(sent_at) - $1::timestamptz) * 1000 AS last_ms
       FROM messages WHERE scheduled_at = $1`,
      [due],
    );
    record("10,000 scheduled messages due at one instant (postgres, inline)", {
      messages: row.sent,
      p50_ms: Math.round(Number(row.first_ms)),
      note: `first sent ${Math.round(Number(row.first_ms))} ms after its time (target < 1,000 ms), last ${Math.round(Number(row.last_ms))} ms; ${row.sent} of ${row.total} sent; written ${Math.round(ahead / 1000)} s ahead`,
    });
  });
}
