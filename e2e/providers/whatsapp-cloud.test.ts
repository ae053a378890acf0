import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { postJson } from "../../server/providers/http-post.ts";
import type { ChannelConfig, OutboundMessage } from "../../server/providers/provider.ts";
import { providerFor } from "../../server/channels/server-registry.ts";
import { startFakeWhatsApp, type FakeWhatsApp } from "../support/fake-whatsapp.ts";

// The WhatsApp Cloud API client against a real local HTTP server speaking the Cloud API's JSON
// (operations.md "Provider endpoints"; the error mapping of docs/providers.md).

let fake: FakeWhatsApp;
let channel: ChannelConfig;
const client = providerFor("whatsapp");

const message = (content: OutboundMessage["content"]): OutboundMessage => ({
  id: "msg_0mwq18yo3jJFvnIzUvqf4q",
  workspaceId: "acme-k3j9x2",
  contactId: "ct_1",
  to: "+5511987654321",
  content,
});

beforeAll(async () => {
  fake = await startFakeWhatsApp();
  channel = {
    id: "ch_test",
    workspaceId: "acme-k3j9x2",
    type: "whatsapp",
    externalId: "106540352242922",
    settings: { api_base_url: fake.url },
    secrets: { access_token: "EAAG-test-token", app_secret: "s", verify_token: "v" },
    ratePerSecond: 80,
  };
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

describe("requests", () => {
  it("posts text to <base>/<phone number id>/messages with the bearer token", async () => {
    const result = await client.send(channel, message({ body: "Olá Ana" }));
    expect(result.outcome).toBe("accepted");
    const [req] = fake.requests;
    expect(req).toMatchObject({ method: "POST", path: "/v21.0/106540352242922/messages", phoneNumberId: "106540352242922" });
    expect(req!.headers.authorization).toBe("Bearer EAAG-test-token");
    expect(req!.headers["content-type"]).toBe("application/json");
    expect(req!.body).toEqual({
      messaging_product: "whatsapp",
      recipient_type: "individual",
      to: "5511987654321",
      type: "text",
      text: { body: "Olá Ana", preview_url: false },
      // Returned by Meta on every status webhook of the message (D47: a lost answer's report still finds it).
      biz_opaque_callback_data: "msg_0mwq18yo3jJFvnIzUvqf4q",
    });
    if (result.outcome !== "accepted") throw new Error("not accepted");
    expect(result.providerMessageId).toBe(req!.wamid);
    expect(result.providerMessageId).toMatch(/^wamid\./);
    expect(result.detail).toMatchObject({
      status_code: 200,
      request_id: expect.any(String),
      excerpt: expect.stringContaining(req!.wamid!),
    });
    expect(result.detail.duration_ms).toBeGreaterThanOrEqual(0);
  });

  it.each(["image", "video", "document"] as const)("sends %s media with the body as caption", async (type) => {
    const result = await client.send(channel, message({ body: "See this", media_url: "https://cdn.example.com/file", media_type: type }));
    expect(result.outcome).toBe("accepted");
    expect(fake.requests[0]!.body).toEqual({
      messaging_product: "whatsapp",
      recipient_type: "individual",
      to: "5511987654321",
      type,
      [type]: { link: "https://cdn.example.com/file", caption: "See this" },
      biz_opaque_callback_data: "msg_0mwq18yo3jJFvnIzUvqf4q",
    });
  });

  it("sends audio without a caption", async () => {
    await client.send(channel, message({ body: "no caption for audio", media_url: "https://cdn.example.com/a.ogg", media_type: "audio" }));
    expect(fake.requests[0]!.body).toMatchObject({ type: "audio", audio: { link: "https://cdn.example.com/a.ogg" } });
    expect(fake.requests[0]!.body.audio).not.toHaveProperty("caption");
  });

  it("answers after the fake's latency", async () => {
    fake.setLatency(150);
    const result = await client.send(channel, message({ body: "slow" }));
    expect(result.outcome).toBe("accepted");
    expect(result.detail.duration_ms).toBeGreaterThanOrEqual(140);
  });
});

describe("error mapping", () => {
  it("429 with Retry-After is temporary and carries the delay", async () => {
    fake.setMode({ kind: "rate_limited", retryAfter: 12 });
    const result = await client.send(channel, message({ body: "x" }));
    expect(result).toMatchObject({ outcome: "temporary", retryAfterMs: 12_000, detail: { status_code: 429 } });
  });

  // D90: only the refusals Meta names (130429, 131056, 131057, a bare 429 or 503) are tried
  // again; every other error is final, a 500 included (the request may have been processed:
  // never a second call, D47).
  it("500 is permanent", async () => {
    fake.setMode({ kind: "status", status: 500, body: { error: { message: "An unknown error occurred", code: 1 } } });
    expect(await client.send(channel, message({ body: "x" }))).toMatchObject({ outcome: "permanent", detail: { status_code: 500 } });
  });

  it.each([130429, 131056, 131057])("Graph code %i (Meta refused the request) is temporary", async (code) => {
    fake.setMode({ kind: "graph_error", status: 400, code });
    expect(await client.send(channel, message({ body: "x" }))).toMatchObject({
      outcome: "temporary",
      error: expect.stringContaining(`code ${code}`),
    });
  });

  it.each([4, 80007, 131048])("Graph code %i is permanent", async (code) => {
    fake.setMode({ kind: "graph_error", status: 400, code });
    expect(await client.send(channel, message({ body: "x" }))).toMatchObject({
      outcome: "permanent",
      error: expect.stringContaining(`code ${code}`),
    });
  });

  it("400 with another Graph error is permanent with its message and code", async () => {
    fake.setMode({
      kind: "graph_error",
      status: 400,
      code: 131026,
      message: "Message undeliverable",
      details: "Recipient is not a valid WhatsApp user",
    });
    expect(await client.send(channel, message({ body: "x" }))).toMatchObject({
      outcome: "permanent",
      error: "Message undeliverable (code 131026): Recipient is not a valid WhatsApp user",
      detail: { status_code: 400, request_id: expect.any(String), excerpt: expect.stringContaining("131026") },
    });
  });

  it("a missing access token is refused by the API: permanent", async () => {
    const result = await client.send({ ...channel, secrets: {} }, message({ body: "x" }));
    expect(result).toMatchObject({ outcome: "permanent", error: expect.stringContaining("code 190") });
  });

  it("a connection dropped after the request was read has an unknown outcome: never retried (D47)", async () => {
    fake.setMode({ kind: "drop" });
    expect(await client.send(channel, message({ body: "x" }))).toMatchObject({
      outcome: "unknown",
      error: expect.stringContaining("closed the connection before answering"),
    });
    expect(fake.requests).toHaveLength(1);
  });

  it("a refused connection is temporary", async () => {
    const closed = await startFakeWhatsApp();
    await closed.close();
    const result = await client.send({ ...channel, settings: { api_base_url: closed.url } }, message({ body: "x" }));
    expect(result).toMatchObject({ outcome: "temporary", error: expect.stringContaining("ECONNREFUSED") });
  });

  it("a redirect is not followed", async () => {
    fake.setMode({ kind: "status", status: 307, headers: { location: `${fake.url}/elsewhere` } });
    expect(await client.send(channel, message({ body: "x" }))).toMatchObject({ outcome: "permanent", error: /redirect/ });
    expect(fake.requests).toHaveLength(1);
  });

  it("modes can apply to the next requests only", async () => {
    fake.setMode({ kind: "rate_limited", retryAfter: 1 }, { times: 1 });
    expect((await client.send(channel, message({ body: "1" }))).outcome).toBe("temporary");
    expect((await client.send(channel, message({ body: "2" }))).outcome).toBe("accepted");
  });

  it("no answer within 15 s has an unknown outcome: the Cloud API may have taken it (D47)", { timeout: 30_000 }, async () => {
    fake.setMode({ kind: "hang" });
    const started = Date.now();
    const result = await client.send(channel, message({ body: "x" }));
    expect(result).toMatchObject({ outcome: "unknown", error: expect.stringContaining("did not answer within 15 s") });
    expect(Date.now() - started).toBeGreaterThanOrEqual(14_900);
    expect(Date.now() - started).toBeLessThan(20_000);
  });
});

describe("private addresses at connection time", () => {
  it("refuses to connect to loopback when private addresses are not allowed", async () => {
    const url = new URL(`${fake.url}/1/messages`);
    await expect(postJson(url, {}, "{}", { timeoutMs: 5000, allowPrivate: false })).rejects.toMatchObject({ code: "EPRIVATEADDRESS" });
    url.hostname = "localhost";
    await expect(postJson(url, {}, "{}", { timeoutMs: 5000, allowPrivate: false })).rejects.toMatchObject({ code: "EPRIVATEADDRESS" });
    expect(fake.requests).toHaveLength(0);
  });
});
