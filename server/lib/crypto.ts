import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes, scrypt, timingSafeEqual } from "node:crypto";
import { promisify } from "node:util";
import { env } from "./env.ts";

const scryptAsync = promisify(scrypt) as (pw: string, salt: Buffer, len: number, opts: object) => Promise<Buffer>;
const SCRYPT = { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };

export function sha256Hex(input: string | Buffer): string {
  return createHash("sha256").update(input).digest("hex");
}

/** Password hash for dashboard users: `scrypt$N$r$p$salt$hash`, all base64url. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(password, salt, 32, SCRYPT);
  return ["scrypt", SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString("base64url"), hash.toString("base64url")].join("$");
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [alg, n, r, p, salt, hash] = stored.split("$");
  if (alg !== "scrypt" || !salt || !hash) return false;
  const expected = Buffer.from(hash, "base64url");
  const actual = await scryptAsync(password, Buffer.from(salt, "base64url"), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: SCRYPT.maxmem,
  });
  return timingSafeEqual(actual, expected);
}

// Credentials at rest (ARCHITECTURE "Providers"): channel secrets are sealed with AES-256-GCM
// under a key derived from AUTH_SECRET with HKDF-SHA256, one derived key per purpose. The
// format is versioned so the scheme can change without losing stored rows:
// `v1.<iv>.<tag>.<ciphertext>`, each part base64url.

const SEAL_VERSION = "v1";
const derivedKeys = new Map<string, Buffer>();

/** A 32-byte key for one purpose (`info`), derived from `secret` with HKDF-SHA256. */
export function deriveKey(secret: string, info: string): Buffer {
  const id = `${info}\u0000${secret}`;
  let key = derivedKeys.get(id);
  if (!key) {
    key = Buffer.from(hkdfSync("sha256", secret, "svc", info, 32));
    derivedKeys.set(id, key);
  }
  return key;
}

/** Seals a JSON object of secrets (AES-256-GCM, random 96-bit IV, authenticated). */
export function sealSecrets(secrets: Record<string, string>, secret: string = env().authSecret): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", deriveKey(secret, "svc/channel-secrets/v1"), iv);
  cipher.setAAD(Buffer.from(SEAL_VERSION));
  const ciphertext = Buffer.concat([cipher.update(JSON.stringify(secrets), "utf8"), cipher.final()]);
  return [SEAL_VERSION, iv, cipher.getAuthTag(), ciphertext].map((p) => (typeof p === "string" ? p : p.toString("base64url"))).join(".");
}

/** Stored credentials that this process's secret cannot open (D53): a configuration problem. */
export class SecretsUnreadableError extends Error {
  readonly code = "secrets_unreadable";
  constructor(message: string) {
    super(message);
    this.name = "SecretsUnreadableError";
  }
}

/** Opens what `sealSecrets` sealed; throws SecretsUnreadableError when the text was altered or the key differs. */
export function openSecrets(text: string, secret: string = env().authSecret): Record<string, string> {
  const [version, iv, tag, ciphertext, extra] = text.split(".");
  if (version !== SEAL_VERSION || !iv || !tag || ciphertext === undefined || extra !== undefined) {
    throw new SecretsUnreadableError("Sealed secrets have an unknown format.");
  }
  const decipher = createDecipheriv("aes-256-gcm", deriveKey(secret, "svc/channel-secrets/v1"), Buffer.from(iv, "base64url"));
  decipher.setAAD(Buffer.from(SEAL_VERSION));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  let plain: string;
  try {
    plain = Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    throw new SecretsUnreadableError("Sealed secrets cannot be opened: they were altered, or AUTH_SECRET changed.");
  }
  const value: unknown = JSON.parse(plain);
  if (!value || typeof value !== "object" || Array.isArray(value)) throw new Error("Sealed secrets are not an object.");
  return Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === "string"));
}

/** Hex HMAC-SHA256 of `data` keyed with `key`. */
export function hmacSha256Hex(key: string | Buffer, data: string | Buffer): string {
  return createHmac("sha256", key).update(data).digest("hex");
}

/** Base64 HMAC-SHA256 of `data` keyed with `key` (Standard Webhooks signatures, D55). */
export function hmacSha256Base64(key: string | Buffer, data: string | Buffer): string {
  return createHmac("sha256", key).update(data).digest("base64");
}

/** Constant-time comparison of two strings (false when the lengths differ). */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
