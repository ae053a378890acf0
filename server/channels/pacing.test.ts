import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openFreshDatabase } from "../../e2e/support/open-database.ts";
import type { Database } from "../db/client.ts";
import { reserveSlots } from "./pacing.ts";

// The per-channel throughput cap (docs/pipeline.md "Pacing"): no second at the provider gets more calls than the channel's
// cap, and calls go out at once at any moment of a second. A call may land up to 100 ms after
// its reservation, so one made in a second's last 100 ms counts in that second and the next.

let fresh: Awaited<ReturnType<typeof openFreshDatabase>>;
let database: Database;

beforeAll(async () => {
  fresh = await openFreshDatabase("postgres", "pacing");
  database = fresh.database;
}, 120_000);

afterAll(() => fresh?.drop());

/** A clock that reads these instants (ms past second S) in turn: the reservation's start, then its answer. */
const S = 1_700_000_000;
const at = (...msPastS: number[]) => {
  const reads = msPastS.map((ms) => S * 1000 + ms);
  return () => reads.shift()!;
};
const booked = (channelId: string) =>
  database.query<{ second: string; count: number }>(
    `SELECT second::text AS second, count FROM channel_pacing WHERE channel_id = $1 ORDER BY second`,
    [channelId],
  );

describe("a channel's pacing (80 a second without a channel row)", () => {
  it("grants a reservation in a second's last 100 ms at once, counted in that second and the next", async () => {
    expect(await reserveSlots(database, "ws_pace", "ch_tail", 78, at(950, 955))).toMatchObject({ granted: 78 });
    expect(await booked("ch_tail")).toEqual([
      { second: String(S), count: 78 },
      { second: String(S + 1), count: 78 },
    ]);
    // The next second already holds those 78: its calls may land there.
    const next = await reserveSlots(database, "ws_pace", "ch_tail", 10, at(1_050, 1_055));
    expect(next).toEqual({ granted: 2, nextSecondAt: new Date((S + 2) * 1000), callBy: (S + 2) * 1000 - 100, channel: null });
  });

  it("takes nothing from the next second for a tail reservation that its full second refused", async () => {
    expect(await reserveSlots(database, "ws_pace", "ch_full", 80, at(500, 505))).toMatchObject({ granted: 80 });
    expect(await reserveSlots(database, "ws_pace", "ch_full", 50, at(950, 955))).toMatchObject({
      granted: 0,
      nextSecondAt: new Date((S + 1) * 1000),
    });
    expect(await reserveSlots(database, "ws_pace", "ch_full", 80, at(1_010, 1_015))).toMatchObject({ granted: 80 });
  });

  it("counts a reservation made earlier in a second in that second only", async () => {
    // Its calls must start by 0.9 s, to land within the second (a call started later goes back).
    expect(await reserveSlots(database, "ws_pace", "ch_early", 5, at(500, 505))).toEqual({
      granted: 5,
      nextSecondAt: new Date((S + 1) * 1000),
      callBy: S * 1000 + 900,
      channel: null,
    });
    expect(await booked("ch_early")).toEqual([{ second: String(S), count: 5 }]);
  });

  it("does not use an answer that came back too late for the seconds it booked", async () => {
    // Asked at 0.5 s, answered at 0.95 s: its calls could land in the next second, which it did not book.
    expect(await reserveSlots(database, "ws_pace", "ch_late", 5, at(500, 950))).toMatchObject({
      granted: 0,
      nextSecondAt: new Date((S + 1) * 1000),
    });
    // Asked in the tail, answered past the next second's own tail.
    expect(await reserveSlots(database, "ws_pace", "ch_late2", 5, at(950, 1_920))).toMatchObject({
      granted: 0,
      nextSecondAt: new Date((S + 2) * 1000),
    });
  });

  it("reads the channel with the reservation: its cap, and the row its provider calls need", async () => {
    await database.query(`INSERT INTO workspaces (id, name) VALUES ('ws_pace', 'Pacing')`);
    await database.query(
      `INSERT INTO channels (id, workspace_id, type, name, external_id, settings, secrets, rate_per_second, disconnected_at)
       VALUES ('ch_row', 'ws_pace', 'whatsapp', 'Main', '100', '{"api_base_url":"http://x"}', 'sealed', 5, '2026-01-02T03:04:05Z')`,
    );
    const reservation = await reserveSlots(database, "ws_pace", "ch_row", 8, at(200, 205));
    expect(reservation).toMatchObject({ granted: 5 });
    expect(reservation.channel).toEqual({
      id: "ch_row",
      workspaceId: "ws_pace",
      type: "whatsapp",
      externalId: "100",
      settings: { api_base_url: "http://x" },
      secrets: "sealed",
      ratePerSecond: 5,
      disconnectedAt: new Date("2026-01-02T03:04:05Z"),
      pausedReason: null,
    });
  });
});
