import Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import { signatureHeader, standardWebhooksHeaders } from "./signature.ts";
import { eventBody } from "./event-body.ts";
import { generateSecret } from "./endpoint-secret.ts";

// interface.md "Signature" and D32, checked against an independent implementation: Stripe's
// verifier accepts the same scheme (t=<unix seconds>, v1 = HMAC-SHA256 of `<t>.<raw body>`).
const stripe = new Stripe("sk_test_unused");

describe("signatureHeader", () => {
  const body = eventBody({
    id: "evt_1",
    name: "contato.criado",
    mode: "live",
    workspace_id: "acme-123456",
    data: { id: "ct_1", name: "Ana" },
    created_at: new Date("2026-11-21T10:00:00.123Z"),
  });

  it("builds D31's body in its documented order", () => {
    expect(body).toBe(
      '{"id":"evt_1","event":"contato.criado","type":"contato.criado","timestamp":"2026-11-21T10:00:00.123Z","namespace":"acme-123456","mode":"live","data":{"id":"ct_1","name":"Ana"}}',
    );
  });

  it("is t=<unix seconds>,v1=<lowercase hex>, accepted by Stripe's verifier", () => {
    const secret = generateSecret();
    expect(secret).toMatch(/^whsec_[0-9A-Za-z]{32}$/);
    const header = signatureHeader(body, [secret]);
    expect(header).toMatch(/^t=\d{10},v1=[0-9a-f]{64}$/);
    expect(stripe.webhooks.constructEvent(body, header, secret, 300)).toMatchObject({ id: "evt_1" });
  });

  it("carries one v1 per valid secret during a rotation (D32), each accepted", () => {
    const [current, previous] = [generateSecret(), generateSecret()];
    const header = signatureHeader(body, [current, previous]);
    expect(header.split(",")).toHaveLength(3);
    expect(stripe.webhooks.constructEvent(body, header, current, 300)).toBeTruthy();
    expect(stripe.webhooks.constructEvent(body, header, previous, 300)).toBeTruthy();
    expect(() => stripe.webhooks.constructEvent(body, header, generateSecret(), 300)).toThrow();
  });

  it("is refused by a receiver when t is more than 300 s from its clock", () => {
    const secret = generateSecret();
    const header = signatureHeader(body, [secret], new Date(Date.now() - 301_000));
    expect(() => stripe.webhooks.constructEvent(body, header, secret, 300)).toThrow(/tolerance/i);
  });

  it("also signs with Standard Webhooks headers that the standardwebhooks package verifies with the secret as shown (D55)", () => {
    const [current, previous] = [generateSecret(), generateSecret()];
    const at = new Date();
    const headers = standardWebhooksHeaders("evt_1", body, [current, previous], at);
    expect(headers["webhook-id"]).toBe("evt_1");
    expect(headers["webhook-timestamp"]).toBe(String(Math.floor(at.getTime() / 1000)));
    expect(headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]{43}= v1,[A-Za-z0-9+/]{43}=$/);
    // The same t as X-svc-Signature for the same attempt.
    expect(signatureHeader(body, [current], at)).toMatch(new RegExp(`^t=${headers["webhook-timestamp"]},`));
    expect(new Webhook(current).verify(body, headers)).toMatchObject({ id: "evt_1", type: "contato.criado" });
    expect(new Webhook(previous).verify(body, headers)).toMatchObject({ id: "evt_1" });
    expect(() => new Webhook(generateSecret()).verify(body, headers)).toThrow();
    expect(() => new Webhook(current).verify(`${body} `, headers)).toThrow();
  });
});
