import { createHmac, timingSafeEqual } from "node:crypto";

// D95: Twilio signs each status callback and inbound message it posts with
// `X-Twilio-Signature`: base64 HMAC-SHA1, keyed with the account's auth token, of the full URL
// it posted to (as configured, query string included) followed by every posted parameter in
// order of name, each as its name then its value, with nothing between.

/** The posted parameters as the form body decodes them (URLSearchParams, or entries of a record). */
export type PostedParams = Iterable<readonly [string, string]>;

export function twilioSignature(authToken: string, url: string, params: PostedParams): string {
  // By name, then (for a name posted more than once) by value, as Twilio's SDKs sort them;
  // code-unit order, as JavaScript's default sort compares.
  const sorted = [...params].sort(([a, x], [b, y]) => compare(a, b) || compare(x, y));
  const data = sorted.reduce((text, [name, value]) => text + name + value, url);
  return createHmac("sha1", authToken).update(data, "utf8").digest("base64");
}

/** Whether `signature` (the header's value, absent when not sent) is Twilio's for this request; compared in constant time. */
export function verifyTwilioSignature(authToken: string, signature: string | undefined, url: string, params: PostedParams): boolean {
  if (!signature) return false;
  const expected = Buffer.from(twilioSignature(authToken, url, params));
  const given = Buffer.from(signature);
  // The length of a SHA-1 signature is public: only the bytes are compared in constant time.
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
