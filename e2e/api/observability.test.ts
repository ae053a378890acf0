import { randomBytes } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api } from "../support/client.ts";
import { UNREADABLE_CHANNEL } from "../../server/messaging/dispatch-message.ts";
import { sealSecrets } from "../../server/lib/crypto.ts";
import { UNREADABLE_ENDPOINT } from "../../server/webhooks/deliver-webhook.ts";
import { freshDatabase, seedFixtures, queryDatabase } from "../support/database.ts";
import { startFakeWhatsApp, type FakeWhatsApp } from "../support/fake-whatsapp.ts";
import { HELLO, HELLO_TEMPLATE } from "../support/whatsapp-window.ts";
import type { Fixtures } from "../support/fixtures.ts";
import { startServer, type RunningServer } from "../support/server.ts";
import { startReceiver, type Receiver } from "../support/webhook-receiver.ts";
import { svcJson } from "../support/svc.ts";
import { poller } from "../support/until.ts";

// D54 through the real path: a server of this test's own, with the pipeline inline, a fake
// WhatsApp Cloud API, a webhook endpoint on loopback and a local OTLP/HTTP receiver
// (OTEL_EXPORTER_OTLP_ENDPOINT). A request's Request-Id reaches the webhook deliveries it
// causes (X-svc-Request-Id), also those recorded later by the pipeline; an incoming
// traceparent is continued through the request, the outbox job, the provider call and the
// webhook call, whose spans arrive at the receiver in one trace with the right parents. And
// D53: a message or delivery that cannot be sent because stored credentials cannot be opened
// with the server's secret fails visibly, naming the fix, instead of staying queued.

const engine = inject("api").engine;
let database: Awaited<ReturnType<typeof freshDatabase>>;
let fake: FakeWhatsApp;
let hooks: Receiver;
let otlp: { url: string; spans: Span[]; close: () => Promise<void> };
let server: RunningServer;
let fx: Fixtures;
let sendingFlow: string;
let waitingFlow: string;

type Span = {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: { key: string; value: { stringValue?: string } }[];
};

/** A tiny OTLP/HTTP receiver: keeps the spans of every JSON export POSTed to /v1/traces. */
async function startOtlpReceiver(): Promise<typeof otlp> {
  const spans: Span[] = [];
  const http: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (req.method === "POST" && req.url === "/v1/traces") {
        expect(req.headers["content-type"]).toMatch(/^application\/json/);
        const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
          resourceSpans: { scopeSpans: { spans: Span[] }[] }[];
        };
        for (const r of body.resourceSpans) for (const s of r.scopeSpans) spans.push(...s.spans);
      }
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const port = (http.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}`, spans, close: () => new Promise((resolve) => http.close(() => resolve())) };
}

const until = poller(30_000);

beforeAll(async () => {
  database = await freshDatabase(engine, `traces_${engine}`);
  const env = { ...process.env, ...database.env, ALLOW_PRIVATE_WEBHOOKS: "1" };
  fx = seedFixtures(env);
  fake = await startFakeWhatsApp();
  hooks = await startReceiver();
  otlp = await startOtlpReceiver();
  const svc = (...args: string[]) => svcJson({ ...database.env, ALLOW_PRIVATE_WEBHOOKS: "1" }, ...args);
  // The sends below go to new contacts, whose 24-hour window is closed: they send a template.
  fake.templates.set("5550044", [HELLO_TEMPLATE]);
  await svc(
    ...["channel", "connect", "--workspace", fx.delivery!.id, "--type", "whatsapp", "--phone-number-id", "5550043", "--waba-id", "5550044"],
    ...["--access-token", "t", "--app-secret", "s", "--verify-token", "v", "--api-base-url", fake.url],
  );
  await svc(
    "webhook",
    "create",
    "--workspace",
    fx.delivery!.id,
    "--url",
    hooks.url,
    "--events",
    "contato.criado,mensagem.enviada,fluxo.parado",
  );
  // A flow whose one step sends: its message's event carries the enrollment's Request-Id.
  const flowFile = join(mkdtempSync(join(tmpdir(), "svc-flow-")), "flow.json");
  writeFileSync(
    flowFile,
    JSON.stringify({ name: "Greets", allow_reentry: true, steps: [{ type: "send", channel: "whatsapp", whatsapp: HELLO }] }),
  );
  sendingFlow = (await svc("flow", "import", "--workspace", fx.delivery!.id, "--file", flowFile, "--status", "active")).flow_id as string;
  // A flow that waits: its runs stay active until they are stopped.
  writeFileSync(flowFile, JSON.stringify({ name: "Waits", steps: [{ type: "wait", duration: "PT1H" }] }));
  waitingFlow = (await svc("flow", "import", "--workspace", fx.delivery!.id, "--file", flowFile, "--status", "active")).flow_id as string;
  server = await startServer({
    ...database.env,
    ALLOW_PRIVATE_WEBHOOKS: "1",
    PIPELINE: "inline",
    OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
    OTEL_BSP_SCHEDULE_DELAY: "100", // export each span soon after it ends
  });
}, 300_000);

afterAll(async () => {
  await server?.stop();
  await Promise.all([fake?.close(), hooks?.close(), otlp?.close()]);
  await database?.drop();
});

describe("X-svc-Request-Id on webhook deliveries (D54)", () => {
  it("carries the Request-Id of the request that caused the event, also for events the pipeline records later", async () => {
    const client = api(fx.delivery!.keys.live, server.url);
    const contact = await client.post("/contacts", { email: "request-id@example.com" }, { headers: { "Request-Id": "req_contact_0001" } });
    expect(contact.status).toBe(200);
    expect(contact.headers.get("request-id")).toBe("req_contact_0001");
    const [created] = await hooks.waitFor((r) => r.body?.event === "contato.criado" && r.body?.data?.id === contact.body.id);
    expect(created!.headers["x-svc-request-id"]).toBe("req_contact_0001");

    // No Request-Id given: the one the service generated and answered with.
    const sent = await client.post("/messages", { channel: "whatsapp", to: { phone: "+5511955550001" }, whatsapp: HELLO });
    expect(sent.status).toBe(202);
    const generated = sent.headers.get("request-id")!;
    expect(generated).toMatch(/^req_/);
    // mensagem.enviada is recorded by the pipeline's job after the provider accepted.
    const [delivery] = await hooks.waitFor((r) => r.body?.event === "mensagem.enviada" && r.body?.data?.id === sent.body.id);
    expect(delivery!.headers["x-svc-request-id"]).toBe(generated);
  });

  it("keeps each request's Request-Id when concurrent requests share one write", async () => {
    const client = api(fx.delivery!.keys.live, server.url);
    const ids = Array.from({ length: 8 }, (_, i) => `req_shared_${Date.now()}_${i}`);
    const created = await Promise.all(
      ids.map((id, i) => client.post("/contacts", { email: `shared-${i}-${id}@example.com` }, { headers: { "Request-Id": id } })),
    );
    for (const [i, contact] of created.entries()) {
      expect(contact.status).toBe(200);
      const [hook] = await hooks.waitFor((r) => r.body?.event === "contato.criado" && r.body?.data?.id === contact.body.id);
      expect(hook!.headers["x-svc-request-id"]).toBe(ids[i]);
    }
  });

  it("keeps each send's Request-Id up to the event its job records later, when concurrent sends share one write", async () => {
    const client = api(fx.delivery!.keys.live, server.url);
    const ids = Array.from({ length: 8 }, (_, i) => `req_send_${Date.now()}_${i}`);
    const sent = await Promise.all(
      ids.map((id, i) =>
        client.post(
          "/messages",
          { channel: "whatsapp", to: { phone: `+55119555501${10 + i}` }, whatsapp: HELLO },
          { headers: { "Request-Id": id } },
        ),
      ),
    );
    for (const [i, message] of sent.entries()) {
      expect(message.status).toBe(202);
      const [hook] = await hooks.waitFor((r) => r.body?.event === "mensagem.enviada" && r.body?.data?.id === message.body.id);
      expect(hook!.headers["x-svc-request-id"]).toBe(ids[i]);
    }
  });

  it("keeps each enrollment's Request-Id up to the events of its run's steps, when concurrent enrollments share one write", async () => {
    const client = api(fx.delivery!.keys.live, server.url);
    const ids = Array.from({ length: 8 }, (_, i) => `req_enroll_${Date.now()}_${i}`);
    const phones = ids.map((_, i) => `+55119555502${10 + i}`);
    const runs = await Promise.all(
      ids.map((id, i) => client.post(`/flows/${sendingFlow}/enroll`, { to: { phone: phones[i] } }, { headers: { "Request-Id": id } })),
    );
    for (const [i, run] of runs.entries()) {
      expect(run.status).toBe(201);
      const [hook] = await hooks.waitFor((r) => r.body?.event === "mensagem.enviada" && r.body?.data?.contact === run.body.contact_id);
      expect(hook!.headers["x-svc-request-id"]).toBe(ids[i]);
    }
  });
});

describe("X-svc-Request-Id on the events of stopped runs (D54)", () => {
  it("an unenroll's fluxo.parado carries the unenroll's Request-Id", async () => {
    const client = api(fx.delivery!.keys.live, server.url);
    const phone = "+5511955550301";
    const run = await client.post(`/flows/${waitingFlow}/enroll`, { to: { phone } }, { headers: { "Request-Id": "req_enroll_waits" } });
    expect(run.status).toBe(201);
    const stopped = await client.post(
      `/flows/${waitingFlow}/unenroll`,
      { to: { phone } },
      { headers: { "Request-Id": "req_unenroll_0001" } },
    );
    expect(stopped.status).toBe(200);
    const [hook] = await hooks.waitFor((r) => r.body?.event === "fluxo.parado" && r.body?.data?.id === run.body.id);
    expect(hook!.headers["x-svc-request-id"]).toBe("req_unenroll_0001");
  });
});

describe("OpenTelemetry traces (D54)", () => {
  it("continues an incoming traceparent through the request, the outbox job, the provider call and the webhook call", async () => {
    const traceId = randomBytes(16).toString("hex");
    const callerSpan = randomBytes(8).toString("hex");
    const client = api(fx.delivery!.keys.live, server.url);
    const sent = await client.post(
      "/messages",
      { channel: "whatsapp", to: { phone: "+5511955550002" }, whatsapp: HELLO },
      { headers: { traceparent: `00-${traceId}-${callerSpan}-01` } },
    );
    expect(sent.status).toBe(202);

    // The provider and the webhook endpoint receive the trace on their HTTP requests.
    const call = await until(
      () => fake.requests.find((r) => r.body?.to === "5511955550002"),
      (r) => r !== undefined,
    );
    expect(String(call!.headers.traceparent)).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));
    const [hook] = await hooks.waitFor((r) => r.body?.event === "mensagem.enviada" && r.body?.data?.id === sent.body.id);
    expect(String(hook!.headers.traceparent)).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));

    // Two deliveries join the trace: contato.criado (the request created the contact) and
    // mensagem.enviada (recorded by the dispatch job once the provider accepted).
    const named = (spans: Span[], prefix: string) => spans.filter((s) => s.name.startsWith(prefix));
    // Every span the test reads: the request's is exported by the API thread and the others by
    // the pipeline's, each on its own schedule, so one can arrive after the rest.
    const spans = await until(
      () => otlp.spans.filter((s) => s.traceId === traceId),
      (s) =>
        named(s, "webhook POST").length === 2 &&
        named(s, "job webhook.deliver").length === 2 &&
        ["POST /api/v1/messages", "job message.dispatch", "provider whatsapp send"].every((prefix) => named(s, prefix).length > 0),
    );
    const one = (prefix: string) => {
      const found = named(spans, prefix);
      expect(found, `${prefix} in ${spans.map((s) => s.name).join(", ")}`).toHaveLength(1);
      return found[0]!;
    };
    const attribute = (span: Span, key: string) => span.attributes.find((a) => a.key === key)?.value.stringValue;
    const byId = (id: string | undefined) => spans.find((s) => s.spanId === id);
    const request = one("POST /api/v1/messages");
    const dispatch = one("job message.dispatch");
    const provider = one("provider whatsapp send");
    const webhook = named(spans, "webhook POST").find((s) => attribute(s, "svc.event") === hook!.body.id)!;
    expect(webhook).toBeDefined();
    const deliver = byId(webhook.parentSpanId)!;
    // The chain: caller → request (server) → job (consumer) → provider call (client); the
    // job's event → its delivery job → the webhook call (client).
    expect(request.parentSpanId).toBe(callerSpan);
    expect(request.kind).toBe(2); // SPAN_KIND_SERVER
    expect(dispatch.parentSpanId).toBe(request.spanId);
    expect(dispatch.kind).toBe(5); // SPAN_KIND_CONSUMER
    expect(provider.parentSpanId).toBe(dispatch.spanId);
    expect(provider.kind).toBe(3); // SPAN_KIND_CLIENT
    expect(deliver.name).toBe("job webhook.deliver");
    expect(deliver.parentSpanId).toBe(dispatch.spanId);
    expect(webhook.kind).toBe(3);
    // The contact the request created: its delivery's job is the request's child.
    const other = named(spans, "job webhook.deliver").find((s) => s !== deliver)!;
    expect(other.parentSpanId).toBe(request.spanId);
    expect(byId(named(spans, "webhook POST").find((s) => s !== webhook)!.parentSpanId)).toBe(other);
    // What went out on the wire names the client spans as parents.
    expect(String(call!.headers.traceparent)).toBe(`00-${traceId}-${provider.spanId}-01`);
    expect(String(hook!.headers.traceparent)).toBe(`00-${traceId}-${webhook.spanId}-01`);
    // Spans carry no personal data: neither the phone number nor the message's text.
    expect(JSON.stringify(spans)).not.toMatch(/5511955550002|Hello from the shop/);
  });
});

describe("configuration failures are visible (D53)", () => {
  it("a message whose channel's credentials cannot be opened fails with the fix, and a delivery likewise", async () => {
    const ws = fx.quota!;
    // Stored by a process with another secret (a restored backup, a CLI run elsewhere).
    const foreign = (secrets: Record<string, string>) => sealSecrets(secrets, "a-different-secret-0123456789abcdef");
    await queryDatabase(
      database.env,
      `INSERT INTO channels (id, workspace_id, type, name, external_id, settings, secrets) VALUES ($1, $2, 'whatsapp', 'Sealed elsewhere', '5550099', $3::jsonb, $4)`,
      [
        "ch_sealed_elsewhere",
        ws.id,
        JSON.stringify({ api_base_url: fake.url }),
        foreign({ access_token: "t", app_secret: "s", verify_token: "v" }),
      ],
    );
    // Its synced template, as a sync before the secret changed left it.
    await queryDatabase(
      database.env,
      `INSERT INTO whatsapp_templates (id, workspace_id, channel_id, name, language, category, status, body, components)
       VALUES ('wt_sealed_elsewhere', $1, 'ch_sealed_elsewhere', 'hello', 'en_US', 'utility', 'approved', 'Hello from the shop.', $2::jsonb)`,
      [ws.id, JSON.stringify(HELLO_TEMPLATE.components)],
    );
    await queryDatabase(
      database.env,
      `INSERT INTO webhook_endpoints (id, workspace_id, url, events) VALUES ($1, $2, $3, '{contato.criado}')`,
      ["wh_sealed_elsewhere", ws.id, hooks.url],
    );
    await queryDatabase(database.env, `INSERT INTO webhook_secrets (workspace_id, endpoint_id, secret) VALUES ($3, $1, $2)`, [
      "wh_sealed_elsewhere",
      foreign({ secret: "whsec_00000000000000000000000000000000" }),
      ws.id,
    ]);
    const client = api(ws.keys.live, server.url);

    const sent = await client.post("/messages", { channel: "whatsapp", to: { phone: "+5511955550003" }, whatsapp: HELLO });
    expect(sent.status).toBe(202);
    const message = await until(
      async () => (await client.get(`/messages/${sent.body.id}`)).body,
      (m) => m.status !== "queued",
    );
    expect(message).toMatchObject({ status: "failed", error: UNREADABLE_CHANNEL, error_code: "channel_credentials_unreadable" });
    expect(fake.requests.some((r) => r.body?.to === "5511955550003")).toBe(false);

    const contact = await client.post("/contacts", { email: "sealed-elsewhere@example.com" });
    expect(contact.status).toBe(200);
    // Two contacts were created (the message's recipient, then this one): two deliveries.
    const deliveries = await until(
      () =>
        queryDatabase(
          database.env,
          `SELECT status, last_error, attempts FROM webhook_deliveries WHERE endpoint_id = 'wh_sealed_elsewhere'`,
        ),
      (rows) => rows.length === 2 && rows.every((r) => r.status !== "pending"),
    );
    expect(deliveries).toEqual([0, 1].map(() => ({ status: "failed", last_error: UNREADABLE_ENDPOINT, attempts: 0 })));
    expect(
      hooks.received.some(
        (r) => r.body?.data?.id === contact.body.id && r.headers["x-svc-delivery-id"] !== undefined && r.body?.namespace === ws.id,
      ),
    ).toBe(false);
  });
});
