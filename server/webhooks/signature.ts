import { hmacSha256Base64, hmacSha256Hex } from "../lib/crypto.ts";

/** The header a receiver verifies (interface.md "Signature", D32). */
export const SIGNATURE_HEADER = "X-svc-Signature";

/**
 * `t=<unix seconds>,v1=<hex>[,v1=<hex>…]`: `v1` is HMAC-SHA256 of `<t>.<raw body>` keyed with
 * the secret, one per valid secret (D32), the current one first.
 */
export function signatureHeader(body: string, secrets: string[], at: Date = new Date()): string {
  const t = unixSeconds(at);
  return [`t=${t}`, ...secrets.map((secret) => `v1=${hmacSha256Hex(secret, `${t}.${body}`)}`)].join(",");
}

/**
 * The Standard Webhooks key of a secret (D55): the base64-decoded part after `whsec_`. Our
 * secrets are `whsec_` + 32 base62 characters (D30), and 32 characters of the base62 alphabet
 * are valid, unpadded base64 (24 bytes), so the `standardwebhooks` package, which strips the
 * prefix and base64-decodes the rest, derives the same key from the secret exactly as shown.
 */
export function standardWebhooksKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith("whsec_") ? secret.slice("whsec_".length) : secret, "base64");
}

/**
 * The three Standard Webhooks headers of a delivery (D55): `webhook-signature` holds
 * `v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`, one per valid secret separated by
 * spaces (D32 rotation), the current one first. The timestamp is `t` of `X-svc-Signature`.
 */
export function standardWebhooksHeaders(eventId: string, body: string, secrets: string[], at: Date = new Date()): Record<string, string> {
  const timestamp = unixSeconds(at);
  const signed = `${eventId}.${timestamp}.${body}`;
  return {
    "webhook-id": eventId,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": secrets.map((secret) => `v1,${hmacSha256Base64(standardWebhooksKey(secret), signed)}`).join(" "),
  };
}

function unixSeconds(at: Date): number {
  return Math.floor(at.getTime() / 1000);
}
