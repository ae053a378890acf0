import { verify, X509Certificate } from "node:crypto";
import { z } from "zod";
import { env } from "../lib/env.ts";

// Amazon SNS messages over HTTP(S) (D73 path 2, D85): the message's signature checked against
// its signing certificate, fetched only from SNS's own hosts (or SNS_CERT_HOSTS) over https and
// cached; its timestamp fresh. Both signature versions: 1 (SHA1withRSA) and 2 (SHA256withRSA).
// https://docs.aws.amazon.com/sns/latest/dg/sns-verify-signature-of-message.html

export const ZSnsMessage = z.object({
  Type: z.enum(["Notification", "SubscriptionConfirmation", "UnsubscribeConfirmation"]),
  MessageId: z.string().min(1).max(128),
  TopicArn: z.string().min(1).max(1024),
  Subject: z.string().max(1024).optional(),
  Message: z.string().max(256 * 1024),
  Timestamp: z.iso.datetime({ offset: true }),
  SignatureVersion: z.enum(["1", "2"]),
  Signature: z.string().min(1).max(4096),
  SigningCertURL: z.string().min(1).max(2048),
  SubscribeURL: z.string().max(4096).optional(),
  Token: z.string().max(4096).optional(),
  UnsubscribeURL: z.string().max(4096).optional(),
});
export type SnsMessage = z.infer<typeof ZSnsMessage>;

/** A signed message older than this (or this far in the future) is refused: a replay, or a wrong clock. */
export const FRESH_MS = 60 * 60_000;

/** Why a message is not taken; the endpoint answers it without changing anything. */
export class SnsRejection extends Error {
  constructor(
    message: string,
    readonly status: 400 | 401 | 403,
  ) {
    super(message);
  }
}

/** SNS's own certificate and subscription hosts: `sns.<region>.amazonaws.com` (and China's `.com.cn`). */
const SNS_HOST = /^sns\.[a-z0-9-]+\.amazonaws\.com(\.cn)?$/;
const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);

/**
 * Whether SNS may make us fetch this URL (its certificate, its subscribe URL): https on an
 * allowed host; plain http only on loopback with ALLOW_PRIVATE_WEBHOOKS=1 (development, tests).
 */
export function allowedSnsUrl(text: string): URL | null {
  if (!URL.canParse(text)) return null;
  const url = new URL(text);
  if (url.username || url.password) return null;
  const https = url.protocol === "https:";
  if (!https && !(url.protocol === "http:" && env().allowPrivateWebhooks && LOOPBACK.has(url.hostname))) return null;
  const hosts = env().snsCertHosts;
  if (!hosts) return https && !url.port && SNS_HOST.test(url.hostname) ? url : null;
  // An entry with a port allows that port; one without, the scheme's default port.
  return hosts.includes(url.host) || (!url.port && hosts.includes(url.hostname)) ? url : null;
}

const FETCH_TIMEOUT_MS = 5_000;
const MAX_CERT_BYTES = 16 * 1024;
const CERT_TTL_MS = 60 * 60_000;
const MAX_CACHED = 32;

// In-process cache (a cache, not shared state): SNS signs with a handful of certificates.
const certificates = new Map<string, { cert: X509Certificate; until: number }>();

/** A URL's body, at most `max` bytes, within the fetch timeout; no redirects. */
export async function fetchBounded(url: URL, max: number): Promise<{ status: number; body: string }> {
  const res = await fetch(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), redirect: "error" });
  const reader = res.body?.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (reader) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      throw new Error(`more than ${max} bytes`);
    }
    chunks.push(value);
  }
  return { status: res.status, body: Buffer.concat(chunks).toString("utf8") };
}

async function certificate(url: URL): Promise<X509Certificate> {
  const key = url.href;
  const cached = certificates.get(key);
  if (cached && cached.until > Date.now()) return cached.cert;
  let cert: X509Certificate;
  try {
    const { status, body } = await fetchBounded(url, MAX_CERT_BYTES);
    if (status !== 200) throw new Error(`HTTP ${status}`);
    cert = new X509Certificate(body);
  } catch (err) {
    throw new SnsRejection(`The signing certificate could not be fetched: ${(err as Error).message}.`, 401);
  }
  const now = Date.now();
  if (Date.parse(cert.validTo) < now || Date.parse(cert.validFrom) > now) {
    throw new SnsRejection("The signing certificate is not valid now.", 401);
  }
  if (certificates.size >= MAX_CACHED) certificates.delete(certificates.keys().next().value!);
  certificates.set(key, { cert, until: now + CERT_TTL_MS });
  return cert;
}

/** The text SNS signs: the message's fields, by name, in this order, each `Name\nvalue\n`. */
export function stringToSign(m: SnsMessage): string {
  const fields =
    m.Type === "Notification"
      ? (["Message", "MessageId", "Subject", "Timestamp", "TopicArn", "Type"] as const)
      : (["Message", "MessageId", "SubscribeURL", "Timestamp", "Token", "TopicArn", "Type"] as const);
  return fields
    .filter((name) => m[name] !== undefined)
    .map((name) => `${name}\n${m[name]}\n`)
    .join("");
}

/**
 * A message's JSON body, checked: its shape, its certificate's host, its signature and its
 * freshness. Throws SnsRejection otherwise.
 */
export async function verifySnsMessage(body: unknown, now = Date.now()): Promise<SnsMessage> {
  const parsed = ZSnsMessage.safeParse(body);
  if (!parsed.success) throw new SnsRejection("The body is not an Amazon SNS message.", 400);
  const message = parsed.data;
  const certUrl = allowedSnsUrl(message.SigningCertURL);
  if (!certUrl) throw new SnsRejection("SigningCertURL is not an https URL on an Amazon SNS host.", 403);
  if (message.Type !== "Notification" && (message.SubscribeURL === undefined || message.Token === undefined)) {
    throw new SnsRejection("A subscription message needs SubscribeURL and Token.", 400);
  }
  const cert = await certificate(certUrl);
  const algorithm = message.SignatureVersion === "1" ? "RSA-SHA1" : "RSA-SHA256";
  const valid = verify(algorithm, Buffer.from(stringToSign(message), "utf8"), cert.publicKey, Buffer.from(message.Signature, "base64"));
  if (!valid) throw new SnsRejection("The message's signature is not valid.", 401);
  const at = Date.parse(message.Timestamp);
  if (Math.abs(now - at) > FRESH_MS) throw new SnsRejection("The message's timestamp is not within an hour of now.", 401);
  return message;
}

/** Forgets the cached certificates (tests). */
export function clearSnsCertificates(): void {
  certificates.clear();
}
