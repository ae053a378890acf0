import type { Database } from "../db/client.ts";

// Per-channel provider throughput (messages per second), shared by every instance: before
// calling a provider, a worker reserves slots in the channel's current second. The counter
// only grows, and a reservation is granted what is left under the cap, so the sum granted in
// one second never exceeds it, however many workers ask at once.

// The channel's cap is read by the same statement, so a claim paces each channel in one round
// trip. A reservation books the same slots in each second from $2 to $4, and is granted what
// is left under the cap in the fullest of them.
const RESERVE = `
  WITH relaxed AS (SELECT set_config('synchronous_commit', 'off', true)),
  r AS (
    INSERT INTO channel_pacing (channel_id, second, count)
    SELECT $1, s, $3 FROM relaxed, generate_series($2::bigint, $4::bigint) AS s
    ON CONFLICT (channel_id, second) DO UPDATE SET count = channel_pacing.count + EXCLUDED.count
    RETURNING count
  )
  SELECT max(r.count) AS count, (SELECT rate_per_second FROM channels WHERE id = $1) AS rate FROM r`;

/** The cap of a channel whose row is gone (disconnected and deleted meanwhile): the default. */
const DEFAULT_RATE = 80;

/**
 * How late a call may reach its provider after its reservation's answer (a busy process, the
 * network): a call reserved in the last part of a second may land in the next.
 */
export const SECOND_TAIL_MS = 100;

/**
 * Reserves up to `wanted` calls for now. A call may land at the provider up to SECOND_TAIL_MS
 * after the answer, so a reservation made in the last SECOND_TAIL_MS of a second is booked in
 * that second and in the next, and granted only what fits under the cap in both: calls go out
 * at once at any moment of a second (deferring them to the next second's start held a tenth of
 * a channel's messages up to 100 ms, at any rate), and no second at the provider gets more than
 * the cap. An answer that comes back too late for the seconds it booked (a slow database, a
 * busy process) is not used: its jobs go back to `nextSecondAt`.
 */
export async function reserveSlots(
  database: Database,
  channelId: string,
  wanted: number,
  clock: () => number = Date.now,
): Promise<{ granted: number; nextSecondAt: Date }> {
  const nowMs = clock();
  const second = Math.floor(nowMs / 1000);
  const last = Math.floor((nowMs + SECOND_TAIL_MS) / 1000);
  const [row] = await database.query<{ count: number; rate: number | null }>(RESERVE, [channelId, second, wanted, last]);
  const answeredMs = clock();
  const nextSecondAt = new Date((Math.floor(answeredMs / 1000) + 1) * 1000);
  if (answeredMs + SECOND_TAIL_MS >= (last + 1) * 1000) return { granted: 0, nextSecondAt };
  const before = Number(row!.count) - wanted;
  return { granted: Math.max(0, Math.min(wanted, (row!.rate ?? DEFAULT_RATE) - before)), nextSecondAt };
}

/** How long a channel told to slow down (Meta's 130429, 131056: D45) sends nothing more. */
export const SLOW_DOWN_SECONDS = 2;

/**
 * Fills the channel's next seconds of pacing, so no worker reserves a call in them: the
 * channel pauses for SLOW_DOWN_SECONDS, then resumes at its rate, and the retried messages
 * wait their backoff as well.
 */
export async function slowChannel(database: Database, channelId: string): Promise<void> {
  const second = Math.floor(Date.now() / 1000);
  await database.query(
    `INSERT INTO channel_pacing (channel_id, second, count)
     SELECT $1, s, 1000000 FROM generate_series($2::bigint, $3::bigint) AS s
     ON CONFLICT (channel_id, second) DO UPDATE SET count = greatest(channel_pacing.count, EXCLUDED.count)`,
    [channelId, second, second + SLOW_DOWN_SECONDS],
  );
}
