import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { signatureHeader } from "../../../server/webhooks/signature.ts";
import { verifyWebhook, WebhookVerificationError } from "./index.js";

// D55, D60: the client's verifyWebhook against the two schemes as their reference code signs:
// X-svc-Signature by the server's own signature function, Standard Webhooks by the
// `standardwebhooks` package (what the server's headers follow). Secrets look like ours:
// `whsec_` + 32 base62 characters.

const secret = "whsec_Zk3mQ9vR2pL7xN4bT8cW1yH6dF0gJ5sA";
const other = "whsec_Ab3mQ9vR2pL7xN4bT8cW1yH6dF0gJ5sZ";
const body = JSON.stringify({
  id: "evt_1",
  event: "contato.criado",
  timestamp: "2026-11-21T12:00:00.000Z",
  namespace: "ws",
  mode: "test",
  data: {},
});
const at = new Date("2026-11-21T12:00:00Z");

describe("verifyWebhook", () => {
  it("verifies X-svc-Signature as the server signs it, with any of the rotation's secrets", async () => {
    const headers = { "X-svc-Signature": signatureHeader(body, [other, secret], at) };
    await expect(verifyWebhook(body, headers, { secret, now: at })).resolves.toMatchObject({ id: "evt_1", event: "contato.criado" });
    await expect(verifyWebhook(body, new Headers(headers), { secret: [other], now: at })).resolves.toMatchObject({ id: "evt_1" });
  });

  it("verifies Standard Webhooks headers as the standardwebhooks package signs them", async () => {
    const signature = new Webhook(secret).sign("evt_1", at, body);
    const headers = {
      "webhook-id": "evt_1",
      "webhook-timestamp": String(at.getTime() / 1000),
      "webhook-signature": `v1,bm90IGl0 ${signature}`,
    };
    await expect(verifyWebhook(body, headers, { secret, now: at })).resolves.toMatchObject({ id: "evt_1" });
    // and now, with the package's own clock: both read the same headers the same way.
    const now = new Date();
    const fresh = { "webhook-id": "evt_2", "webhook-timestamp": String(Math.floor(now.getTime() / 1000)), "webhook-signature": "" };
    fresh["webhook-signature"] = new Webhook(secret).sign("evt_2", new Date(Number(fresh["webhook-timestamp"]) * 1000), body);
    expect(new Webhook(secret).verify(body, fresh)).toMatchObject({ id: "evt_1" });
    await expect(verifyWebhook(body, fresh, { secret })).resolves.toMatchObject({ id: "evt_1" });
  });

  it.each([
    ["a changed body", { body: body.replace("ws", "wx") }],
    ["another secret", { secret: other }],
    ["a timestamp outside the tolerance", { now: new Date(at.getTime() + 301_000) }],
  ])("refuses %s, in both schemes", async (_, change: { body?: string; secret?: string; now?: Date }) => {
    const svc = { "x-svc-signature": signatureHeader(body, [secret], at) };
    const standard = {
      "webhook-id": "evt_1",
      "webhook-timestamp": String(at.getTime() / 1000),
      "webhook-signature": new Webhook(secret).sign("evt_1", at, body),
    };
    for (const headers of [svc, standard]) {
      await expect(verifyWebhook(change.body ?? body, headers, { secret: change.secret ?? secret, now: change.now ?? at })).rejects.toThrow(
        WebhookVerificationError,
      );
    }
  });

  it("refuses a delivery with no signature header", async () => {
    await expect(verifyWebhook(body, {}, { secret })).rejects.toThrow(/No signature header/);
  });
});
