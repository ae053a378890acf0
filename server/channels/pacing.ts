import type { Database } from "../db/client.ts";
import { CONFIG_COLUMNS, type ConfigRow } from "../providers/load-channel.ts";

// Per-channel provider throughput (messages per second), shared by every instance: before
// calling a provider, a worker reserves slots in the channel's current second. The counter
// only grows, and a reservation is granted what is left under the cap, so the sum granted in
// one second never exceeds it, however many workers ask at once.

// The channel is read by the same statement, its cap and what its provider calls need, so a
// claim paces each channel and reads it in one round trip. The reservation is booked in second
// $2; a reservation in a second's tail ($4) books what that second granted in second $2 + 1 as
// well, where it is granted what is left.
const RESERVE = `
  WITH relaxed AS (SELECT set_config('synchronous_commit', 'off', true)),
  ch AS (SELECT ${CONFIG_COLUMNS} FROM channels WHERE workspace_id = $6 AND id = $1),
  cap AS (SELECT coalesce((SELECT "ratePerSecond" FROM ch), $5::int) AS rate),
  this AS (
    INSERT INTO channel_pacing (workspace_id, channel_id, second, count) SELECT $6, $1, $2, $3 FROM relaxed
    ON CONFLICT (workspace_id, channel_id, second) DO UPDATE SET count = channel_pacing.count + EXCLUDED.count
    RETURNING count
  ),
  granted AS (SELECT greatest(0, least($3::int, cap.rate - (this.count - $3::int))) AS n FROM this, cap),
  next AS (
    INSERT INTO channel_pacing (workspace_id, channel_id, second, count) SELECT $6, $1, $2 + 1, n FROM granted, relaxed WHERE $4 AND n > 0
    ON CONFLICT (workspace_id, channel_id, second) DO UPDATE SET count = channel_pacing.count + EXCLUDED.count
    RETURNING count
  )
  SELECT granted.n AS granted, (SELECT count FROM next) AS next_count, cap.rate, (SELECT row_to_json(ch) FROM ch) AS channel
  FROM granted, cap`;

/** A reservation's answer: the calls granted, and the channel's row (null when it is gone). */
export type Reservation = { granted: number; nextSecondAt: Date; callBy: number; channel: ConfigRow | null };

/** The cap of a channel whose row is gone (disconnected and deleted meanwhile): the default. */
const DEFAULT_RATE = 80;

/**
 * How late a call may reach its provider after its reservation's answer (a busy process, the
 * network): a call reserved in the last part of a second may land in the next.
 */
export const SECOND_TAIL_MS = 100;

/**
 * Reserves up to `wanted` calls for now. A call may land at the provider up to SECOND_TAIL_MS
 * after the answer, so a reservation made in the last SECOND_TAIL_MS of a second is also booked
 * in the next second, and granted only what fits under the cap in both: calls go out at once
 * at any moment of a second (deferring them to the next second's start held a tenth of a
 * channel's messages up to 100 ms, at any rate), and no second at the provider gets more than
 * the cap. The next second is booked with what this one granted, not with all that was asked:
 * a full second's refused reservations take nothing from the next. An answer that comes back
 * too late for the seconds it booked (a slow database, a busy process) is not used: its jobs go
 * back to `nextSecondAt`. Nor is a granted call started after `callBy` (a busy process again,
 * between the answer and the call): its job goes back too (`dispatchMessage`). The channel's
 * row comes with the answer, for the calls granted.
 */
export async function reserveSlots(
  database: Database,
  workspaceId: string,
  channelId: string,
  wanted: number,
  clock: () => number = Date.now,
): Promise<Reservation> {
  const nowMs = clock();
  const second = Math.floor(nowMs / 1000);
  const tail = Math.floor((nowMs + SECOND_TAIL_MS) / 1000) > second;
  // The channel's row arrives as JSON: its `disconnectedAt` a string.
  type Row = {
    granted: number;
    next_count: number | null;
    rate: number;
    channel: (Omit<ConfigRow, "disconnectedAt"> & { disconnectedAt: string | null }) | null;
  };
  const [row] = await database.query<Row>(RESERVE, [channelId, second, wanted, tail, DEFAULT_RATE, workspaceId]);
  const answeredMs = clock();
  const nextSecondAt = new Date((Math.floor(answeredMs / 1000) + 1) * 1000);
  const last = tail ? second + 1 : second;
  // A granted call that has not started by then could land after the seconds it booked.
  const callBy = (last + 1) * 1000 - SECOND_TAIL_MS;
  const json = row!.channel;
  const channel: ConfigRow | null = json && {
    ...json,
    disconnectedAt: json.disconnectedAt === null ? null : new Date(json.disconnectedAt),
  };
  if (answeredMs >= callBy) return { granted: 0, nextSecondAt, callBy, channel };
  const granted = Number(row!.granted);
  if (!tail || granted === 0) return { granted, nextSecondAt, callBy, channel };
  const beforeNext = Number(row!.next_count) - granted;
  return { granted: Math.max(0, Math.min(granted, Number(row!.rate) - beforeNext)), nextSecondAt, callBy, channel };
}

/** How long a channel told to slow down (Meta's 130429, 131056: D45) sends nothing more. */
export const SLOW_DOWN_SECONDS = 2;

/**
 * Fills the channel's next seconds of pacing, so no worker reserves a call in them: the
 * channel pauses for SLOW_DOWN_SECONDS, then resumes at its rate, and the retried messages
 * wait their backoff as well.
 */
export async function slowChannel(database: Database, workspaceId: string, channelId: string): Promise<void> {
  const second = Math.floor(Date.now() / 1000);
  await database.query(
    `INSERT INTO channel_pacing (workspace_id, channel_id, second, count)
     SELECT $4, $1, s, 1000000 FROM generate_series($2::bigint, $3::bigint) AS s
     ON CONFLICT (workspace_id, channel_id, second) DO UPDATE SET count = greatest(channel_pacing.count, EXCLUDED.count)`,
    [channelId, second, second + SLOW_DOWN_SECONDS, workspaceId],
  );
}
