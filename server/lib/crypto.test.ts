import { describe, expect, it } from "vitest";
import { deriveKey, hmacSha256Hex, openSecrets, safeEqual, sealSecrets } from "./crypto.ts";

const SECRET = "test-auth-secret-0123456789abcdef";

describe("sealSecrets / openSecrets", () => {
  const secrets = { access_token: "EAAG…tóken", app_secret: "s3cret", verify_token: "v" };

  it("round-trips an object of strings", () => {
    expect(openSecrets(sealSecrets(secrets, SECRET), SECRET)).toEqual(secrets);
  });

  it("is versioned and never shows the plaintext", () => {
    const sealed = sealSecrets(secrets, SECRET);
    expect(sealed).toMatch(/^v1\.[\w-]{16}\.[\w-]{22}\.[\w-]+$/);
    expect(sealed).not.toContain("s3cret");
  });

  it("uses a random IV: sealing twice gives different texts", () => {
    expect(sealSecrets(secrets, SECRET)).not.toBe(sealSecrets(secrets, SECRET));
  });

  it("refuses another key", () => {
    expect(() => openSecrets(sealSecrets(secrets, SECRET), "another-secret-0123456789")).toThrow(/cannot be opened/);
  });

  it("refuses altered ciphertext, IV or tag", () => {
    const parts = sealSecrets(secrets, SECRET).split(".");
    for (const i of [1, 2, 3]) {
      const altered = [...parts];
      const bytes = Buffer.from(altered[i]!, "base64url");
      bytes[0] = bytes[0]! ^ 1;
      altered[i] = bytes.toString("base64url");
      expect(() => openSecrets(altered.join("."), SECRET)).toThrow();
    }
  });

  it("refuses unknown formats and versions", () => {
    const [, iv, tag, ct] = sealSecrets(secrets, SECRET).split(".");
    expect(() => openSecrets(`v2.${iv}.${tag}.${ct}`, SECRET)).toThrow(/unknown format/);
    expect(() => openSecrets("plain text", SECRET)).toThrow(/unknown format/);
    expect(() => openSecrets(`v1.${iv}.${tag}.${ct}.x`, SECRET)).toThrow(/unknown format/);
  });
});

describe("deriveKey", () => {
  it("derives 32 bytes, different per purpose and per secret, stable per pair", () => {
    const a = deriveKey(SECRET, "one");
    expect(a).toHaveLength(32);
    expect(deriveKey(SECRET, "one").equals(a)).toBe(true);
    expect(deriveKey(SECRET, "two").equals(a)).toBe(false);
    expect(deriveKey("other-secret-0123456789", "one").equals(a)).toBe(false);
  });
});

describe("hmacSha256Hex / safeEqual", () => {
  it("computes RFC 4231 test case 2", () => {
    expect(hmacSha256Hex("Jefe", "what do ya want for nothing?")).toBe("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
  });

  it("compares strings exactly", () => {
    expect(safeEqual("abc", "abc")).toBe(true);
    expect(safeEqual("abc", "abd")).toBe(false);
    expect(safeEqual("abc", "abcd")).toBe(false);
    expect(safeEqual("", "")).toBe(true);
  });
});
