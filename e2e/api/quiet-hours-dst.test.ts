import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api } from "../support/client.ts";
import { freshDatabase, queryDatabase, seedFixtures } from "../support/database.ts";
import type { Fixtures } from "../support/fixtures.ts";
import { ROOT, startServer, type RunningServer } from "../support/server.ts";
import { poller } from "../support/until.ts";

// D65 across a daylight-saving change, over real HTTP on each engine: a server whose
// quiet-hours clock (and only that clock, TIME_ZONE_CLOCK) starts on the evening of
// 13 March 2027 in New York, the night the clocks go from 2:00 EST to 3:00 EDT. A send due at
// 21:30 EST in quiet hours 21:00-08:00 is held until 08:00 EDT (12:00 UTC, not the 13:00 UTC
// a fixed offset would give), and its job is due when the local clock reads 08:00.
const engine = inject("api").engine;
const CLOCK = "2027-03-14T02:30:00.000Z"; // 13 March 2027, 21:30 EST
const until = poller(30_000);
let database: Awaited<ReturnType<typeof freshDatabase>>;
let fx: Fixtures;
let server: RunningServer | undefined;
let flowId: string;

beforeAll(async () => {
  database = await freshDatabase(engine, `quietdst_${engine}`, { migrated: true });
  fx = seedFixtures(database.env);
  flowId = importFlow(fx.trust!.id);
  server = await startServer({ ...database.env, PIPELINE: "inline", TIME_ZONE_CLOCK: CLOCK });
}, 480_000);

afterAll(async () => {
  await server?.stop("SIGKILL");
  await database?.drop();
});

describe("quiet hours across a daylight-saving change (D65)", () => {
  it("holds a send until 08:00 local on the zone's own calendar", async () => {
    const ws = fx.trust!;
    const key = api(ws.keys.test, server!.url);
    const contact = await key.post("/contacts", { phone: "+12025550123", time_zone: "America/New_York" });
    expect(contact.status, contact.text).toBeLessThan(300);
    const enrolled = await key.post(`/flows/${flowId}/enroll`, { to: { contact_id: contact.body.id } });
    expect(enrolled.status, enrolled.text).toBe(201);
    const run = await until(
      async () => (await key.get(`/runs/${enrolled.body.id}`)).body,
      (r: { status: string; history: { kind: string }[] }) => r.history.some((h) => h.kind === "held_quiet_hours"),
    );
    const held = run.history.find((h: { kind: string }) => h.kind === "held_quiet_hours");
    expect(held).toMatchObject({ step: "steps.0", until: "2027-03-14T12:00:00.000Z", time_zone: "America/New_York" });
    expect(run.status).toBe("active");
    // The job is due when the quiet-hours clock reads 12:00 UTC: 9.5 hours after the clock's
    // start, less the minutes the server has run since.
    const [row] = await queryDatabase(database.env, `SELECT next_step_at FROM flow_runs WHERE id = $1`, [enrolled.body.id]);
    const ahead = new Date(row!.next_step_at as string).getTime() - Date.now();
    expect(ahead).toBeLessThanOrEqual(9.5 * 3_600_000);
    expect(ahead).toBeGreaterThan(9.5 * 3_600_000 - 10 * 60_000);
  });
});

/** Imports the flow with the operator CLI before the server holds the store. */
function importFlow(workspaceId: string): string {
  const file = join(mkdtempSync(join(tmpdir(), "svc-quiet-")), "flow.json");
  writeFileSync(
    file,
    JSON.stringify({
      name: "Night",
      quiet_hours: { start: "21:00", end: "08:00" },
      steps: [{ type: "send", channel: "whatsapp", whatsapp: { body: "Good morning" } }],
    }),
  );
  const out = execFileSync(
    process.execPath,
    ["bin/svc.mjs", "flow", "import", "--workspace", workspaceId, "--file", file, "--status", "active", "--json"],
    {
      cwd: ROOT,
      env: { ...process.env, ...database.env },
      encoding: "utf8",
    },
  );
  return (JSON.parse(out) as { flow_id: string }).flow_id;
}
