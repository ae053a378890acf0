import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api, expectError, fixtures, type ApiResponse } from "../support/client.ts";
import { dashboardQuery } from "../support/dashboard.ts";
import { ROOT } from "../support/server.ts";
import { until } from "../support/until.ts";
import { startReceiver, type Received, type Receiver } from "../support/webhook-receiver.ts";

// D77 over real HTTP on both engines: the webhook endpoints API with its scopes, the event
// stream for test keys (bounded per key), and `svc listen` forwarding a test message's three
// events from the server (started as `npm start` runs it) to a local receiver that verifies
// them with the `standardwebhooks` package.
const { baseUrl } = inject("api");
const ws = fixtures().webhookEndpoints!;
const test = api(ws.keys.test);
const live = api(ws.keys.live);
const readOnly = api(ws.keys.readOnly);

const verify = (secret: string, hit: Received) =>
  new Webhook(secret).verify(hit.raw, {
    "webhook-id": hit.headers["webhook-id"] as string,
    "webhook-timestamp": hit.headers["webhook-timestamp"] as string,
    "webhook-signature": hit.headers["webhook-signature"] as string,
  }) as Record<string, any>;

describe("webhook endpoints through the API (D77)", () => {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => receiver.close());

  it("creates, reads, changes, tests, rotates, lists deliveries, redelivers and deletes an endpoint", async () => {
    const created = await test.post("/webhook-endpoints", { url: receiver.url, events: ["contato.criado"], description: "Orders" });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ url: receiver.url, events: ["contato.criado"], description: "Orders", enabled: true });
    expect(created.body.id).toMatch(/^we_/);
    expect(created.body.secret).toMatch(/^whsec_[0-9A-Za-z]{32}$/);
    const id = created.body.id as string;
    const secret = created.body.secret as string;

    const got = await test.get(`/webhook-endpoints/${id}`);
    expect(got.status).toBe(200);
    expect(got.body.secret).toBeUndefined();
    expect(got.body.secrets).toHaveLength(1);
    expect((await test.get("/webhook-endpoints")).body.map((e: { id: string }) => e.id)).toContain(id);

    const patched = await test.request("PATCH", `/webhook-endpoints/${id}`, { events: [], description: null });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ id, events: [], description: null });

    // A test delivery: answered with its attempt, signed with the secret, marked test.
    const tested = await test.post(`/webhook-endpoints/${id}/test`, { event: "mensagem.entregue" });
    expect(tested.status).toBe(200);
    expect(tested.body).toMatchObject({ status_code: 200, succeeded: true, error: null });
    expect(tested.body.duration_ms).toBeGreaterThanOrEqual(0);
    const [hit] = await receiver.waitFor((r) => r.body?.id === tested.body.event_id);
    expect(verify(secret, hit!)).toMatchObject({ event: "mensagem.entregue", test: true, mode: "test" });

    // The deliveries, filtered by status; a redelivery sends the same event again.
    const deliveries = await until(
      () => test.get(`/webhook-endpoints/${id}/deliveries?status=succeeded&limit=1`),
      (r) => r.status !== 200 || r.body.length === 1,
    );
    expect(deliveries.status).toBe(200);
    expect(deliveries.body[0]).toMatchObject({ id: tested.body.delivery_id, event_id: tested.body.event_id, status: "succeeded" });
    expect(deliveries.body[0].attempts).toBe(1);
    expect((await test.get(`/webhook-endpoints/${id}/deliveries?status=failed`)).body).toEqual([]);
    const redelivered = await test.post(`/webhook-deliveries/${tested.body.delivery_id as string}/redeliver`);
    expect(redelivered.status).toBe(200);
    expect(redelivered.body).toMatchObject({ id: tested.body.delivery_id, event_id: tested.body.event_id });
    expect(["pending", "succeeded"]).toContain(redelivered.body.status);
    await receiver.waitFor((r) => r.body?.id === tested.body.event_id, 2);

    // Rotation: the new secret and the old one both verify the next delivery.
    const rotated = await test.post(`/webhook-endpoints/${id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    const again = await test.post(`/webhook-endpoints/${id}/test`, {});
    expect(again.body.status_code).toBe(200);
    const [second] = await receiver.waitFor((r) => r.body?.id === again.body.event_id);
    expect(verify(rotated.body.secret as string, second!)).toMatchObject({ event: "contato.criado", test: true });
    expect(verify(secret, second!)).toMatchObject({ event: "contato.criado" });

    // Disabled: a test is refused.
    expect((await test.request("PATCH", `/webhook-endpoints/${id}`, { enabled: false })).body).toMatchObject({
      enabled: false,
      disabled_reason: "manual",
    });
    expectError(await test.post(`/webhook-endpoints/${id}/test`, {}), {
      status: 409,
      type: "conflict",
      code: "endpoint_disabled",
      param: "id",
    });

    const deleted = await test.request("DELETE", `/webhook-endpoints/${id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ id, deleted: true });
    expectError(await test.get(`/webhook-endpoints/${id}`), { status: 404, type: "not_found", param: "id" });
    expectError(await test.request("DELETE", `/webhook-endpoints/${id}`), { status: 404, type: "not_found", param: "id" });
  });

  it("checks input and scopes", async () => {
    expectError(await test.post("/webhook-endpoints", { url: receiver.url, events: ["nope"] }), {
      status: 400,
      type: "invalid_request",
      param: "events.0",
    });
    expectError(await test.post("/webhook-endpoints", { url: receiver.url, secret: "x" }), {
      status: 400,
      type: "invalid_request",
      code: "unknown_parameter",
      param: "secret",
    });
    expectError(await readOnly.get("/webhook-endpoints"), { status: 403, type: "forbidden", code: "missing_scope" });
    expectError(await readOnly.post("/webhook-endpoints", { url: receiver.url }), {
      status: 403,
      type: "forbidden",
      code: "missing_scope",
    });
    expectError(await test.post("/webhook-deliveries/whd_nope/redeliver"), { status: 404, type: "not_found", param: "id" });
  });
});

describe("at most 50 endpoints a workspace, listed in pages (D99, D10)", () => {
  const full = fixtures().endpointLimit!;
  const key = api(full.keys.test);
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => receiver.close());

  it("registers 50 and refuses every further one with 409 limit_reached, even when they arrive together", async () => {
    const tries = await Promise.all(
      Array.from({ length: 56 }, (_, i) => key.post("/webhook-endpoints", { url: `${receiver.url}?n=${i}`, description: `Endpoint ${i}` })),
    );
    expect(tries.filter((r) => r.status === 201)).toHaveLength(50);
    const refused = tries.filter((r) => r.status !== 201);
    expect(refused).toHaveLength(6);
    for (const r of refused) {
      expectError(r, { status: 409, type: "conflict", code: "limit_reached", param: null });
      expect(r.body.error.message).toContain("50 webhook endpoints");
      expect(r.body.error.doc_url).toMatch(/\/docs\/errors#code-limit_reached$/);
    }
    // The dashboard, which lists every endpoint of the workspace, shows all 50.
    const shown = await dashboardQuery<{ id: string }[]>(full.id, "webhooks.list", undefined);
    expect(shown).toHaveLength(50);

    // D10 paging: `limit` and `after`, a `Link` to the next page while more exist; newest first.
    const ids: string[] = [];
    let path: string | null = "/webhook-endpoints?limit=20";
    const sizes: number[] = [];
    while (path) {
      const page: ApiResponse<{ id: string; created_at: string }[]> = await key.get(path);
      expect(page.status).toBe(200);
      sizes.push(page.body.length);
      ids.push(...page.body.map((e) => e.id));
      const next: string | undefined = page.headers.get("link")?.match(/<([^>]+)>; rel="next"/)?.[1];
      path = next ? next.slice(next.indexOf("/webhook-endpoints")) : null;
    }
    expect(sizes).toEqual([20, 20, 10]);
    expect(new Set(ids)).toEqual(new Set(shown.map((e) => e.id)));
    const all = await key.get<{ id: string; created_at: string }[]>("/webhook-endpoints");
    expect(all.headers.get("link")).toBeNull();
    expect(all.body.map((e) => e.id)).toEqual(ids);
    const order = all.body.map((e) => [e.created_at, e.id].join(" "));
    expect(order).toEqual([...order].sort().reverse());
    expectError(await key.get("/webhook-endpoints?limit=0"), { status: 400, type: "invalid_request", param: "limit" });
    expectError(await key.get("/webhook-endpoints?after=we_nope"), { status: 400, type: "invalid_request", param: "after" });
    expectError(await key.get("/webhook-endpoints?color=red"), {
      status: 400,
      type: "invalid_request",
      code: "unknown_parameter",
      param: "color",
    });

    // Deleting one makes room for exactly one more.
    expect((await key.request("DELETE", `/webhook-endpoints/${ids[0]}`)).status).toBe(200);
    expect((await key.post("/webhook-endpoints", { url: `${receiver.url}?n=again` })).status).toBe(201);
    expectError(await key.post("/webhook-endpoints", { url: `${receiver.url}?n=over` }), {
      status: 409,
      type: "conflict",
      code: "limit_reached",
    });
  });
});

describe("GET /webhook-events/stream (D77)", () => {
  /** Opens a stream; resolves once its headers came (the stream counts against the key from then). */
  async function open(key: string, query = "") {
    const abort = new AbortController();
    const res = await fetch(`${baseUrl}/api/v1/webhook-events/stream${query}`, {
      headers: { Authorization: `Bearer ${key}` },
      signal: abort.signal,
    });
    return { res, close: () => abort.abort() };
  }

  it("streams a test key's events, refuses live keys and a sixth stream of one key", async () => {
    expectError(await live.get("/webhook-events/stream"), { status: 403, type: "forbidden", code: "test_key_required" });
    expectError(await test.get("/webhook-events/stream?events=nope"), { status: 400, type: "invalid_request", param: "events" });
    const streams = [];
    for (let i = 0; i < 5; i++) streams.push(await open(ws.keys.test!));
    try {
      for (const s of streams) {
        expect(s.res.status).toBe(200);
        expect(s.res.headers.get("content-type")).toMatch(/^text\/event-stream/);
      }
      expectError(await test.get("/webhook-events/stream"), { status: 429, type: "rate_limit", code: "too_many_streams" });

      // The first stream carries a contact created now, as a delivery body.
      const phone = `+55119${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;
      const created = await test.post("/contacts", { phone });
      const reader = streams[0]!.res.body!.getReader();
      let text = "";
      const decoder = new TextDecoder();
      await until(
        async () => {
          const { value } = await reader.read();
          text += decoder.decode(value, { stream: true });
          return text;
        },
        (t) => t.includes(created.body.id as string),
        30_000,
      );
      const block = text.split("\n\n").find((b) => b.includes(created.body.id as string))!;
      expect(block).toMatch(/^id: evt_/m);
      expect(block).toMatch(/^event: contato\.criado$/m);
      const data = JSON.parse(/^data: (.*)$/m.exec(block)![1]!) as Record<string, any>;
      expect(data).toMatchObject({ event: "contato.criado", type: "contato.criado", mode: "test", data: { id: created.body.id, phone } });
    } finally {
      for (const s of streams) s.close();
    }
    // Closed streams free their places.
    await until(
      async () => {
        const s = await open(ws.keys.test!);
        s.close();
        return s.res.status;
      },
      (status) => status === 200,
      30_000,
    );
  });
});

describe("svc listen (D77)", () => {
  let child: ChildProcess | null = null;
  afterAll(() => {
    if (child && child.exitCode === null) child.kill("SIGTERM");
  });

  it("forwards a test message's three events to a local receiver, each verified with the standardwebhooks package", async () => {
    const receiver = await startReceiver();
    try {
      child = spawn(
        process.execPath,
        [
          join(ROOT, "bin", "svc.mjs"),
          "listen",
          "--forward-to",
          `${receiver.url}/listen`,
          "--events",
          "mensagem.enviada,mensagem.entregue,mensagem.lida",
        ],
        {
          cwd: ROOT,
          env: {
            ...process.env,
            SVC_API_KEY: ws.keys.test,
            SVC_API_URL: `${baseUrl}/api/v1/`,
            XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), "svc-listen-")), // its kept secret, not the machine's
            DATABASE_URL: "",
            DATA_DIR: "",
          },
        },
      );
      let out = "";
      child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
      child.stderr!.on("data", (d: Buffer) => (out += d.toString()));
      const secret = (await until(
        () => /Webhook signing secret: (whsec_\w+)/.exec(out)?.[1],
        (s) => !!s,
        120_000,
      ))!;

      const sent = await test.post("/messages", {
        channel: "whatsapp",
        to: { phone: "+15550100009" },
        whatsapp: { body: "Hello from listen" },
      });
      expect(sent.status).toBe(202);
      const hits = await receiver.waitFor((r) => r.body?.data?.id === sent.body.id, 3, 60_000);
      const verified = hits.map((h) => verify(secret, h));
      expect(verified.map((e) => e.event).sort()).toEqual(["mensagem.enviada", "mensagem.entregue", "mensagem.lida"].sort());
      for (const [i, e] of verified.entries()) {
        expect(hits[i]!.path.endsWith("/listen")).toBe(true);
        expect(hits[i]!.headers["webhook-id"]).toBe(e.id);
        expect(hits[i]!.headers["x-svc-signature"]).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
        expect(e).toMatchObject({ mode: "test", data: { id: sent.body.id } });
      }
      // A tampered body fails.
      expect(() => verify(secret, { ...hits[0]!, raw: hits[0]!.raw.replace("}", ', "x": 1}') })).toThrow();
      await until(
        () => out,
        (o) => (o.match(/ -> 200/g) ?? []).length >= 3,
      );

      const exited = new Promise<number | null>((resolve) => child!.once("exit", (code) => resolve(code)));
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
      expect(out).toMatch(/Stopped after forwarding 3 events\./);
    } finally {
      await receiver.close();
    }
  });

  it("refuses to start with a live key", async () => {
    const run = spawn(
      process.execPath,
      [join(ROOT, "bin", "svc.mjs"), "listen", "--forward-to", "http://127.0.0.1:9/", "--api-url", baseUrl],
      {
        cwd: ROOT,
        env: { ...process.env, SVC_API_KEY: ws.keys.live, DATABASE_URL: "", DATA_DIR: "" },
      },
    );
    let err = "";
    run.stderr.on("data", (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null>((resolve) => run.once("exit", resolve));
    expect(code).toBe(1);
    expect(err).toMatch(/403.*test key/);
  });
});
