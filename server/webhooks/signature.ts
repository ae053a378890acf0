import { hmacSha256Hex } from "../lib/crypto.ts";

/** The header a receiver verifies (interface.md "Signature", D32). */
export const SIGNATURE_HEADER = "X-svc-Signature";

/**
 * `t=<unix seconds>,v1=<hex>[,v1=<hex>…]`: `v1` is HMAC-SHA256 of `<t>.<raw body>` keyed with
 * the secret, one per valid secret (D32), the current one first.
 */
export function signatureHeader(body: string, secrets: string[], at: Date = new Date()): string {
  const t = Math.floor(at.getTime() / 1000);
  return [`t=${t}`, ...secrets.map((secret) => `v1=${hmacSha256Hex(secret, `${t}.${body}`)}`)].join(",");
}
