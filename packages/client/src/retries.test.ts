import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Svc, SvcError } from "./index.js";

// D60: retries of 429 and 5xx honour Retry-After (bounded), and keep the POST's idempotency key.
// A small local HTTP server answers as each test scripts it; the client's calls against the
// real service are in packages/client/test/client.test.ts.

type Seen = { method: string; url: string; key: string | undefined; at: number };
let answers: ((req: IncomingMessage, res: ServerResponse) => void)[] = [];
const seen: Seen[] = [];
const server = createServer((req, res) => {
  seen.push({ method: req.method!, url: req.url!, key: req.headers["idempotency-key"] as string | undefined, at: Date.now() });
  req.resume();
  req.on("end", () => (answers.shift() ?? ((_, r) => r.writeHead(500).end()))(req, res));
});
let baseUrl = "";
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const json =
  (status: number, body: unknown, headers: Record<string, string> = {}) =>
  (_: IncomingMessage, res: ServerResponse) =>
    res.writeHead(status, { "Content-Type": "application/json", ...headers }).end(JSON.stringify(body));
const rateLimited = (retryAfter: string) =>
  json(
    429,
    { error: { type: "rate_limit", code: "rate_limited", message: "Too many requests.", param: null, doc_url: "x" } },
    { "Retry-After": retryAfter },
  );
const tag = { id: "tag_1", name: "VIP", color: null, created_at: "2026-11-21T12:00:00.000Z" };

describe("retries", () => {
  it("retries a 409 idempotency_key_in_use with the same key until the answer is replayed (D80)", async () => {
    seen.length = 0;
    const inUse = json(409, {
      error: { type: "conflict", code: "idempotency_key_in_use", message: "In progress.", param: "Idempotency-Key", doc_url: "x" },
    });
    answers = [inUse, inUse, json(201, tag, { "Idempotent-Replayed": "true", "Request-Id": "req_1" })];
    const svc = new Svc({ apiKey: "svc_test_x", baseUrl, maxRetries: 0 });
    await expect(svc.tags.create({ name: "VIP" }, { idempotencyKey: "k-409" })).resolves.toEqual(tag);
    expect(seen.map((s) => s.key)).toEqual(["k-409", "k-409", "k-409"]);
    expect(svc.lastResponse).toMatchObject({ status: 201, requestId: "req_1", idempotentReplayed: true, rateLimit: null });
  });

  it("waits Retry-After after a 429 and retries the POST with the same idempotency key", async () => {
    seen.length = 0;
    answers = [rateLimited("1"), json(201, tag)];
    const svc = new Svc({ apiKey: "svc_test_x", baseUrl });
    await expect(svc.tags.create({ name: "VIP" })).resolves.toEqual(tag);
    expect(seen).toHaveLength(2);
    expect(seen[0]!.key).toMatch(/^[0-9a-f-]{36}$/);
    expect(seen[1]!.key).toBe(seen[0]!.key);
    expect(seen[1]!.at - seen[0]!.at).toBeGreaterThanOrEqual(950);
  });

  it("retries 5xx with backoff, at most maxRetries times, then throws the typed error", async () => {
    seen.length = 0;
    const failure = json(500, { error: { type: "api_error", code: "internal_error", message: "boom", param: null, doc_url: "x" } });
    answers = [failure, failure, failure];
    const svc = new Svc({ apiKey: "svc_test_x", baseUrl, maxRetries: 2 });
    const error = await svc.usage.get().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SvcError);
    expect(error).toMatchObject({ status: 500, type: "api_error", code: "internal_error" });
    expect(seen).toHaveLength(3);
  });

  it("does not wait a Retry-After longer than maxRetryDelaySeconds: the 429 is thrown at once", async () => {
    seen.length = 0;
    answers = [rateLimited("120")];
    const svc = new Svc({ apiKey: "svc_test_x", baseUrl, maxRetryDelaySeconds: 30 });
    await expect(svc.tags.create({ name: "VIP" }, { idempotencyKey: "k-1" })).rejects.toMatchObject({ status: 429, code: "rate_limited" });
    expect(seen).toEqual([expect.objectContaining({ key: "k-1" })]);
  });

  it("never retries a 4xx other than 429", async () => {
    seen.length = 0;
    answers = [json(404, { error: { type: "not_found", code: "resource_missing", message: "No such tag.", param: "id", doc_url: "x" } })];
    await expect(new Svc({ apiKey: "svc_test_x", baseUrl }).messages.get("msg_1")).rejects.toMatchObject({ status: 404, param: "id" });
    expect(seen).toHaveLength(1);
  });
});
