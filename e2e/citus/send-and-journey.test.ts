import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api } from "../support/client.ts";
import { dashboardMutation, dashboardQuery } from "../support/dashboard.ts";
import { inboundTextWebhook, postWebhook, startFakeWhatsApp, statusWebhook, type FakeWhatsApp } from "../support/fake-whatsapp.ts";
import { shardNames, type FixtureWorkspace } from "../support/fixtures.ts";
import { startSmtpSink, type SmtpSink } from "../support/smtp-sink.ts";
import { poller } from "../support/until.ts";
import { oneWorkspacePerWorker, workersWithRows } from "./shards.ts";

// D87: the send path, the provider's status reports and the journey engine on a Citus cluster,
// through HTTP, in two workspaces whose shards sit on different workers: every statement of
// these paths names one workspace, so Citus routes it to one worker.
const { baseUrl } = inject("api");
const until = poller(30_000);
const callback = `${baseUrl}/api/providers/whatsapp`;

type Placed = { port: number; ws: FixtureWorkspace; phoneNumberId: string; appSecret: string };
let placed: Placed[] = [];
let fake: FakeWhatsApp;
let smtp: SmtpSink;
let seq = 0;
const phone = () => `+55119${String(60_000_000 + (Date.now() % 1_000_000) * 10 + seq++).slice(-8)}`;

beforeAll(async () => {
  fake = await startFakeWhatsApp({ latencyMs: 5 });
  smtp = await startSmtpSink();
  const byWorker = await oneWorkspacePerWorker(shardNames("shards"), ["test", "live"]);
  placed = [];
  for (const [port, ws] of byWorker) {
    const phoneNumberId = String(100_000_000 + Math.floor(Math.random() * 899_999_999));
    const appSecret = `secret-${randomUUID()}`;
    await dashboardMutation(ws.id, "channels.connect", {
      type: "whatsapp",
      phone_number_id: phoneNumberId,
      waba_id: String(200_000_000 + Math.floor(Math.random() * 799_999_999)),
      access_token: "token-citus",
      app_secret: appSecret,
      verify_token: "verify-citus",
      api_base_url: fake.url,
    });
    await dashboardMutation(ws.id, "channels.connect", { type: "email", smtp_url: smtp.url, from: `news@${port}.example` });
    placed.push({ port, ws, phoneNumberId, appSecret });
  }
});

afterAll(async () => {
  await fake?.close();
  await smtp?.close();
});

const message = (key: string, id: string) => api(key).get(`/messages/${id}`);
const statusOf = async (key: string, id: string) => (await message(key, id)).body.status as string;
const ports = () => placed.map((p) => p.port).sort((a, b) => a - b);

describe("sends, status reports and journeys on Citus (D87)", () => {
  it("walks test-mode WhatsApp and e-mail sends to read in workspaces on both workers", async () => {
    const sent: { key: string; id: string; final: string }[] = [];
    for (const { ws } of placed) {
      const key = ws.keys.test!;
      const wa = await api(key).post("/messages", {
        channel: "whatsapp",
        to: { phone: phone() },
        whatsapp: { body: "Hello from a shard" },
      });
      expect(wa.status, JSON.stringify(wa.body)).toBe(202);
      sent.push({ key, id: wa.body.id, final: "read" });
      const mail = await api(key).post("/messages", {
        channel: "email",
        to: { email: `c.${randomUUID().slice(0, 8)}@example.com` },
        email: { subject: "On a shard", html: "<p>Hello</p>" },
      });
      expect(mail.status, JSON.stringify(mail.body)).toBe(202);
      sent.push({ key, id: mail.body.id, final: "read" });
    }
    for (const s of sent)
      await until(
        () => statusOf(s.key, s.id),
        (status) => status === s.final,
      );
    const ids = `'{${sent.map((s) => s.id).join(",")}}'`;
    expect(await workersWithRows("messages", `id = ANY(${ids})`)).toEqual(ports());
    expect(await workersWithRows("message_history", `message_id = ANY(${ids})`)).toEqual(ports());
    for (const table of ["contacts", "events"]) expect(await workersWithRows(table), table).toEqual(ports());
  });

  it("hands live sends to the fake providers once each, and Meta's status reports walk them to read", async () => {
    const sent: { p: Placed; id: string; to: string }[] = [];
    const mails: string[] = [];
    for (const p of placed) {
      const key = p.ws.keys.live!;
      const to = phone();
      // The contact writes first (an inbound message, D44): the 24-hour window opens (D43).
      const inbound = await postWebhook(callback, inboundTextWebhook(p.phoneNumberId, to.slice(1), "hi"), p.appSecret);
      expect(inbound.status, await inbound.text()).toBe(200);
      const wa = await api(key).post("/messages", { channel: "whatsapp", to: { phone: to }, whatsapp: { body: "Live from a shard" } });
      expect(wa.status, JSON.stringify(wa.body)).toBe(202);
      sent.push({ p, id: wa.body.id, to });
      const address = `l.${randomUUID().slice(0, 8)}@example.com`;
      const mail = await api(key).post("/messages", {
        channel: "email",
        to: { email: address },
        email: { subject: "Live", html: "<p>Hi</p>" },
      });
      expect(mail.status, JSON.stringify(mail.body)).toBe(202);
      mails.push(address);
      await until(
        () => statusOf(key, mail.body.id),
        (s) => s === "sent",
      );
    }
    for (const { p, id, to } of sent) {
      const key = p.ws.keys.live!;
      const accepted = await until(
        () => message(key, id),
        (r) => r.body.status === "sent",
      );
      const wamid = accepted.body.provider_message_id as string;
      const report = statusWebhook(p.phoneNumberId, [
        { wamid, status: "delivered", recipient: to.slice(1) },
        { wamid, status: "read", recipient: to.slice(1) },
      ]);
      const answer = await postWebhook(callback, report, p.appSecret);
      expect(answer.status, await answer.text()).toBe(200);
      await until(
        () => statusOf(key, id),
        (s) => s === "read",
      );
      expect(fake.requests.filter((r) => r.body?.to === to.slice(1))).toHaveLength(1);
    }
    for (const address of mails) expect(smtp.messages.filter((m) => m.to.includes(address))).toHaveLength(1);
  });

  it("walks a journey run (enroll, send, wait, tag, end) in workspaces on both workers", async () => {
    const runs: { ws: FixtureWorkspace; id: string; tag: string }[] = [];
    for (const { ws } of placed) {
      const key = ws.keys.test!;
      const tag = (await api(key).post("/tags", { name: `journey-${randomUUID().slice(0, 6)}` })).body.id as string;
      const { flow_id } = await dashboardMutation<{ flow_id: string }>(ws.id, "flows.create", {
        definition: {
          name: `Citus journey ${seq++}`,
          status: "active",
          steps: [
            { type: "send", channel: "whatsapp", whatsapp: { body: "Welcome {{name}}" } },
            { type: "wait", duration: "PT1S" },
            { type: "tag", add: [tag] },
          ],
        },
      });
      const res = await api(key).post(`/flows/${flow_id}/enroll`, { to: { phone: phone(), name: "Ana" } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      runs.push({ ws, id: res.body.id, tag });
    }
    for (const run of runs) {
      const done = await until(
        () =>
          dashboardQuery<{ status: string; contact_id: string; history: { kind: string; detail: Record<string, unknown> }[] }>(
            run.ws.id,
            "flows.run",
            { run_id: run.id },
          ),
        (r) => r.status !== "active",
      );
      expect(done.status).toBe("completed");
      expect(done.history.map((h) => h.kind)).toEqual(expect.arrayContaining(["enrolled", "waiting", "completed"]));
      const messageId = done.history.find((h) => h.detail.type === "send")!.detail.message_id as string;
      await until(
        () => statusOf(run.ws.keys.test!, messageId),
        (s) => s === "read",
      );
      const contact = (await api(run.ws.keys.test!).get(`/contacts/${done.contact_id}`)).body;
      expect(contact.tags).toEqual([run.tag]);
    }
    for (const table of ["flow_runs", "flow_run_history", "flow_step_stats"]) expect(await workersWithRows(table), table).toEqual(ports());
  });

  it("pauses, resumes and archives a journey with a waiting run in workspaces on both workers", async () => {
    for (const { ws } of placed) {
      const { flow_id } = await dashboardMutation<{ flow_id: string }>(ws.id, "flows.create", {
        definition: { name: `Citus lifecycle ${seq++}`, status: "active", steps: [{ type: "wait", duration: "PT1H" }] },
      });
      const run = await api(ws.keys.test!).post(`/flows/${flow_id}/enroll`, { to: { phone: phone() } });
      expect(run.status, JSON.stringify(run.body)).toBe(201);
      await until(
        () => dashboardQuery<{ history: { kind: string }[] }>(ws.id, "flows.run", { run_id: run.body.id }),
        (r) => r.history.some((h) => h.kind === "waiting"),
      );
      for (const status of ["paused", "active", "archived"]) await dashboardMutation(ws.id, "flows.setStatus", { flow_id, status });
      expect(await dashboardQuery(ws.id, "flows.run", { run_id: run.body.id })).toMatchObject({
        status: "stopped",
        reason: "flow archived",
      });
    }
  });
});
