import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api, expectError, fixtures } from "../support/client.ts";
import { dashboardMutation, dashboardQuery } from "../support/dashboard.ts";
import { queryDatabase } from "../support/database.ts";
import { startSmtpSink, type SmtpSink } from "../support/smtp-sink.ts";
import { svc, svcJson } from "../support/svc.ts";
import { poll } from "../support/until.ts";

// D93 over the real paths: an e-mail channel sends 1,000 live e-mails through the SMTP sink;
// 50 of them (5 %) come back as hard bounces through the e-mail events endpoint. The channel's
// rolling rates (GET /channels/{id}) follow; once the bounce rate passes 4 % the guard pauses
// the channel's journey sends (canal.pausado, reason bounce_rate; a journey's send step skips
// with channel_paused) while a transactional API send still goes out. `svc workspace update
// --guard` sets the thresholds (bad input: a usage error naming --guard, nothing written);
// `svc channel resume` lifts the pause.
const ws = fixtures().guard!;
const live = api(ws.keys.live);
const { baseUrl, env } = inject("api");
const sql = (text: string, params: unknown[] = []) => queryDatabase(env, text, params);
const run = Date.now().toString(36);
const address = (i: number | string) => `g${i}-${run}@guard.example`;
let smtp: SmtpSink;
let channelId = "";
let eventsToken = "";

beforeAll(async () => {
  smtp = await startSmtpSink();
  const connected = await dashboardMutation<{ channel_id: string; events_token: string }>(ws.id, "channels.connect", {
    type: "email",
    smtp_url: smtp.url,
    from: "news@guard.example",
    rate_per_second: 1000,
  });
  channelId = connected.channel_id;
  eventsToken = connected.events_token;
}, 60_000);

afterAll(async () => {
  await smtp?.close();
});

const channel = async () => {
  const res = await live.get(`/channels/${channelId}`);
  expect(res.status, res.text).toBe(200);
  return res.body as {
    status: string;
    paused_reason: string | null;
    reputation: { complaint_rate: number; bounce_rate: number; window_sent: number };
  };
};

const bounce = async (messageId: string) => {
  const res = await fetch(`${baseUrl}/api/providers/email/events`, {
    method: "POST",
    headers: { Authorization: `Bearer ${eventsToken}`, "Content-Type": "application/json" },
    body: JSON.stringify({ message_id: messageId, event: "bounced", reason: "550 5.1.1 no such user" }),
  });
  expect(res.status).toBe(200);
};

const email = (to: string) => ({ channel: "email", to: { email: to }, email: { subject: "News", html: "<p>News</p>" } });

describe("the reputation guard (D93)", () => {
  it("pauses journey e-mails once 1,000 were sent with 5 % hard bounces, while transactional sends go on", async () => {
    const fresh = await channel();
    expect(fresh).toMatchObject({ status: "connected", reputation: { complaint_rate: 0, bounce_rate: 0, window_sent: 0 } });

    const batch = await live.post("/messages/batch", { messages: Array.from({ length: 1000 }, (_, i) => email(address(i))) });
    expect(batch.status, batch.text.slice(0, 500)).toBe(200);
    const ids = (batch.body.data as { id: string }[]).map((m) => m.id);
    expect(ids).toHaveLength(1000);
    const sent = await poll(channel, (c) => c.reputation.window_sent >= 1000, 240_000, 500);
    expect(sent.reputation).toEqual({ complaint_rate: 0, bounce_rate: 0, window_sent: 1000 });

    // 40 hard bounces are 4 %: not past the threshold.
    for (const id of ids.slice(0, 40)) await bounce(id);
    expect(await channel()).toMatchObject({ status: "connected", reputation: { bounce_rate: 0.04, window_sent: 1000 } });
    // A transactional send goes out while the bounces come in.
    const during = await live.post("/messages", email(address("during")));
    expect(during.status).toBe(202);
    for (const id of ids.slice(40, 50)) await bounce(id);
    const paused = await channel();
    expect(paused).toMatchObject({ status: "paused", paused_reason: "bounce_rate" });
    expect(paused.reputation.bounce_rate).toBeCloseTo(50 / 1000, 2);
    const events = await sql(`SELECT data FROM events WHERE workspace_id = $1 AND name = 'canal.pausado'`, [ws.id]);
    expect(events.map((e) => e.data)).toEqual([expect.objectContaining({ channel_id: channelId, type: "email", reason: "bounce_rate" })]);

    // Transactional API sends go on; journey sends on the channel skip with channel_paused.
    const after = await live.post("/messages", email(address("after")));
    expect(after.status, after.text).toBe(202);
    for (const id of [during.body.id, after.body.id]) {
      await poll(
        () => live.get(`/messages/${id}`),
        (r) => r.body.status === "sent",
        30_000,
      );
    }
    const { flow_id } = await dashboardMutation<{ flow_id: string }>(ws.id, "flows.create", {
      definition: {
        name: `Newsletter ${run}`,
        status: "active",
        steps: [{ type: "send", channel: "email", email: { subject: "Hi", html: "<p>Hi</p>" } }],
      },
    });
    const enrolled = await live.post(`/flows/${flow_id}/enroll`, { to: { email: address("journey") } });
    expect(enrolled.status, enrolled.text).toBe(201);
    const walked = await poll(
      () =>
        dashboardQuery<{ status: string; history: { kind: string; detail: Record<string, unknown> }[] }>(ws.id, "flows.run", {
          run_id: enrolled.body.id,
        }),
      (r) => r.status !== "active",
      20_000,
    );
    expect(walked.history.find((h) => h.kind === "skipped")?.detail).toMatchObject({ code: "reputation_guard", skip: "channel_paused" });

    const resumed = await svcJson(env, "channel", "resume", "--workspace", ws.id, "--channel", channelId);
    expect(resumed).toEqual({ channel_id: channelId, status: "connected" });
    expect(await channel()).toMatchObject({ status: "connected", paused_reason: null });
  }, 360_000);

  it("svc workspace update --guard sets the thresholds, refusing bad input with the flag and writing nothing", async () => {
    const cli = (...args: string[]) => svc(env, "workspace", "update", "--workspace", ws.id, ...args, "--json");
    for (const bad of ["complaints=2", "bounces=0", "bounces=-0.1", "spam=0.1", "complaints=0.003,complaints=0.004", "bounces"]) {
      const refused = await cli("--guard", bad);
      expect(refused.code, refused.stderr).toBe(2);
      expect(JSON.parse(refused.stdout).error).toMatchObject({ code: "usage", message: expect.stringMatching(/^--guard must be/) });
    }
    // A refused flag beside it writes nothing either.
    expect((await cli("--guard", "bounces=0.1", "--time-zone", "Mars/Olympus")).code).not.toBe(0);
    const [before] = await sql(`SELECT guard FROM workspaces WHERE id = $1`, [ws.id]);
    expect(before!.guard).toEqual({});
    const set = await svcJson(env, "workspace", "update", "--workspace", ws.id, "--guard", "complaints=0.001,bounces=0.02");
    expect(set).toMatchObject({ workspace: ws.id, guard: { complaints: 0.001, bounces: 0.02 } });
    const kept = await svcJson(env, "workspace", "update", "--workspace", ws.id, "--guard", "bounces=0.05");
    expect(kept).toMatchObject({ guard: { complaints: 0.001, bounces: 0.05 } });
  }, 60_000);

  it("the hourly sweep pauses a channel whose sends alone took it past 1,000 with its bounce rate past the threshold", async () => {
    // The bounces came while fewer than 1,000 had been sent, so none of them could trip the
    // guard; the sends that followed took the window past 1,000 with no bounce after them.
    const { channel_id: quiet } = await dashboardMutation<{ channel_id: string }>(ws.id, "channels.connect", {
      type: "email",
      smtp_url: smtp.url,
      from: "quiet@guard.example",
    });
    const today = new Date().toISOString().slice(0, 10);
    await sql(
      `INSERT INTO channel_reputation (workspace_id, channel_id, day, sent, delivered, complaints, bounces) VALUES ($1, $2, $3, 1000, 940, 0, 60)`,
      [ws.id, quiet, today],
    );
    const read = async () => (await live.get(`/channels/${quiet}`)).body as Awaited<ReturnType<typeof channel>>;
    expect(await read()).toMatchObject({ status: "connected", reputation: { bounce_rate: 0.06, window_sent: 1000 } });

    await sql(`UPDATE jobs SET run_at = now() WHERE id = 'job_sweep'`);
    const paused = await poll(read, (c) => c.status === "paused", 60_000, 250);
    expect(paused).toMatchObject({ paused_reason: "bounce_rate" });
    const events = await sql(`SELECT data FROM events WHERE workspace_id = $1 AND name = 'canal.pausado' AND data->>'channel_id' = $2`, [
      ws.id,
      quiet,
    ]);
    expect(events.map((e) => e.data)).toEqual([expect.objectContaining({ type: "email", reason: "bounce_rate" })]);
  }, 120_000);

  it("GET /channels/{id} answers another workspace's channel and an unknown id as not found", async () => {
    expectError(await live.get(`/channels/ch_unknown`), { status: 404, type: "not_found", param: "id" });
    const other = api(fixtures().refusals!.keys.live);
    expectError(await other.get(`/channels/${channelId}`), { status: 404, type: "not_found" });
  });
});
