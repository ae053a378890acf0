import type { Database } from "../db/client.ts";

// Per-channel provider throughput (messages per second), shared by every instance: before
// calling a provider, a worker reserves slots in the channel's current second. The counter
// only grows, and a reservation is granted what is left under the cap, so the sum granted in
// one second never exceeds it, however many workers ask at once.

// The channel's cap is read by the same statement, so a claim paces each channel in one round trip.
const RESERVE = `
  WITH relaxed AS (SELECT set_config('synchronous_commit', 'off', true)),
  r AS (
    INSERT INTO channel_pacing (channel_id, second, count) SELECT $1, $2, $3 FROM relaxed
    ON CONFLICT (channel_id, second) DO UPDATE SET count = channel_pacing.count + EXCLUDED.count
    RETURNING count
  )
  SELECT r.count, (SELECT rate_per_second FROM channels WHERE id = $1) AS rate FROM r`;

/** The cap of a channel whose row is gone (disconnected and deleted meanwhile): the default. */
const DEFAULT_RATE = 80;

/** Reservations are not made in the last part of a second: calls made then would land in the next. */
export const SECOND_TAIL_MS = 100;

export async function reserveSlots(
  database: Database,
  channelId: string,
  wanted: number,
): Promise<{ granted: number; nextSecondAt: Date }> {
  const nowMs = Date.now();
  const second = Math.floor(nowMs / 1000);
  const nextSecondAt = new Date((second + 1) * 1000);
  if (nowMs - second * 1000 > 1000 - SECOND_TAIL_MS) return { granted: 0, nextSecondAt };
  const [row] = await database.query<{ count: number; rate: number | null }>(RESERVE, [channelId, second, wanted]);
  // A reservation that came back late (a slow database, a busy process) is not used: its calls
  // would land in the next second, on top of that second's own.
  if (Date.now() - second * 1000 > 1000 - SECOND_TAIL_MS) return { granted: 0, nextSecondAt };
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
