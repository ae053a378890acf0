import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { fixtures } from "../../../e2e/support/client.ts";
import { startReceiver, type Receiver } from "../../../e2e/support/webhook-receiver.ts";
import {
  Svc,
  SvcError,
  SvcForbiddenError,
  SvcNotFoundError,
  type ErrorCode,
  type Recipient,
  type SendMessageRequest,
} from "../src/index.js";

// D80 against the real server of the API tests (both engines): `lastResponse`, one error class
// per type, the retry of `409 idempotency_key_in_use`, an exclusive `Recipient`, the methods of
// webhook endpoints, templates and contact erase; and the README's install command run from a
// fresh clone of the repository.
const ws = fixtures().client!;
const baseUrl = inject("api").baseUrl;
const svc = new Svc({ apiKey: ws.keys.test!, baseUrl });
const phone = () => `+55119${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;
const ROOT = fileURLToPath(new URL("../../..", import.meta.url));

// Types: these must not compile (checked by `tsc --noEmit -p .`).
// @ts-expect-error two addresses
const twoAddresses: Recipient = { phone: "+5511987654321", email: "ana@example.com" };
// @ts-expect-error a name beside contact_id
const namedId: Recipient = { contact_id: "ct_1", name: "Ana" };
const wrongSend: SendMessageRequest = {
  channel: "whatsapp",
  // @ts-expect-error contact_id beside phone
  to: { phone: "+5511987654321", contact_id: "ct_1" },
  whatsapp: { body: "x" },
};
// A code this client does not know still types, and known codes narrow.
const unknownCode: ErrorCode = "a_code_added_later";
void [twoAddresses, namedId, wrongSend, unknownCode];

describe("@svc/client, continued (D80)", () => {
  it("exposes the latest response's request id, replay flag and rate limit", async () => {
    await svc.check();
    expect(svc.lastResponse).toMatchObject({ status: 200, requestId: expect.any(String), idempotentReplayed: false });
    expect(svc.lastResponse!.rateLimit).toMatchObject({ limit: expect.any(Number), remaining: expect.any(Number) });
    const key = `lr-${Date.now()}`;
    const body = { phone: phone() };
    await svc.contacts.upsert(body, { idempotencyKey: key });
    expect(svc.lastResponse!.idempotentReplayed).toBe(false);
    await svc.contacts.upsert(body, { idempotencyKey: key });
    expect(svc.lastResponse!.idempotentReplayed).toBe(true);
  });

  it("throws one subclass per error type, with code typed as any string", async () => {
    const missing = await svc.contacts.get("ct_nope").catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(SvcNotFoundError);
    expect(missing).toBeInstanceOf(SvcError);
    expect(missing).toMatchObject({ name: "SvcNotFoundError", status: 404, code: "resource_missing" });
    expect(svc.lastResponse).toMatchObject({ status: 404, requestId: (missing as SvcError).requestId });
    const readOnly = new Svc({ apiKey: ws.keys.readOnly!, baseUrl });
    const forbidden = await readOnly.tags.create({ name: "No" }).catch((e: unknown) => e);
    expect(forbidden).toBeInstanceOf(SvcForbiddenError);
    expect((forbidden as SvcError).code).toBe("missing_scope");
  });

  it("retries 409 idempotency_key_in_use until the first answer is stored, and gets it replayed", async () => {
    const key = `race-${Date.now()}`;
    const body = { channel: "whatsapp" as const, to: { phone: phone() }, whatsapp: { body: "Once" } };
    const answers = await Promise.all(Array.from({ length: 4 }, () => svc.messages.send(body, { idempotencyKey: key })));
    expect(new Set(answers.map((m) => m.id)).size).toBe(1);
  });

  it("manages webhook endpoints, erases a contact and lists templates", async () => {
    const receiver: Receiver = await startReceiver();
    try {
      const created = await svc.webhookEndpoints.create({ url: receiver.url, events: ["contato.apagado"] });
      expect(created.secret).toMatch(/^whsec_/);
      await expect(svc.webhookEndpoints.get(created.id)).resolves.toMatchObject({ id: created.id, enabled: true });
      // One endpoint a page: the list follows each page's Link to the next (D10, D99).
      const endpoints = [];
      for await (const e of svc.webhookEndpoints.list({ limit: 1 })) endpoints.push(e.id);
      expect(endpoints).toContain(created.id);
      expect(new Set(endpoints).size).toBe(endpoints.length);
      await expect(svc.webhookEndpoints.update(created.id, { description: "Client" })).resolves.toMatchObject({ description: "Client" });
      const tested = await svc.webhookEndpoints.test(created.id, { event: "mensagem.lida" });
      expect(tested).toMatchObject({ status_code: 200, succeeded: true });
      const deliveries = [];
      for await (const d of svc.webhookEndpoints.deliveries(created.id, { limit: 1 })) deliveries.push(d);
      expect(deliveries.map((d) => d.id)).toContain(tested.delivery_id);
      await expect(svc.webhookEndpoints.redeliver(tested.delivery_id)).resolves.toMatchObject({ id: tested.delivery_id });
      await expect(svc.webhookEndpoints.rotateSecret(created.id)).resolves.toMatchObject({ secret: expect.stringMatching(/^whsec_/) });

      const contact = await svc.contacts.upsert({ phone: phone(), name: "To erase" });
      await expect(svc.contacts.erase(contact.id)).resolves.toEqual({ id: contact.id, erased: true });
      await expect(svc.contacts.get(contact.id)).rejects.toBeInstanceOf(SvcNotFoundError);
      await receiver.waitFor((r) => r.body?.event === "contato.apagado" && r.body?.data?.id === contact.id);
      await expect(svc.webhookEndpoints.delete(created.id)).resolves.toEqual({ id: created.id, deleted: true });

      const templates = [];
      for await (const t of svc.templates.list({ limit: 10 })) templates.push(t);
      expect(Array.isArray(templates)).toBe(true);
    } finally {
      await receiver.close();
    }
  });
});

describe("the README's install command (D80)", () => {
  let dir = "";
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "svc-client-install-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("installs the client from a fresh clone with one command and calls the service", { timeout: 300_000 }, async () => {
    // The repository as committed, cloned fresh: nothing built, nothing installed.
    execFileSync("git", ["clone", "--quiet", "--depth", "1", `file://${ROOT}`, join(dir, "repo")], { stdio: "pipe" });
    const app = join(dir, "app");
    execFileSync("mkdir", ["-p", app]);
    writeFileSync(join(app, "package.json"), JSON.stringify({ name: "app", version: "1.0.0", type: "module", private: true }));
    // The README's command, with its <path> filled in.
    execFileSync("npm", ["install", "--no-audit", "--no-fund", "--offline", join(dir, "repo", "packages", "client")], {
      cwd: app,
      stdio: "pipe",
    });
    writeFileSync(
      join(app, "check.mjs"),
      `import { Svc } from "@svc/client";
const svc = new Svc({ apiKey: process.env.SVC_API_KEY, baseUrl: process.env.SVC_API_URL });
const check = await svc.check();
console.log(JSON.stringify({ check, requestId: svc.lastResponse.requestId }));`,
    );
    const out = execFileSync(process.execPath, ["check.mjs"], {
      cwd: app,
      env: { ...process.env, SVC_API_KEY: ws.keys.test!, SVC_API_URL: baseUrl },
    }).toString();
    expect(JSON.parse(out)).toMatchObject({ check: { ok: true, mode: "test" }, requestId: expect.any(String) });
  });
});
