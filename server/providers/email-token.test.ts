import { describe, expect, it } from "vitest";
import { signToken, verifyToken } from "./email-token.ts";

const SECRET = "test-auth-secret-0123456789abcdef";
const ID = "msg_0mwq18yo3jJFvnIzUvqf4q";

describe("e-mail tracking tokens", () => {
  it("carry the message id and verify", () => {
    const token = signToken(ID, SECRET);
    expect(token).toMatch(/^msg_0mwq18yo3jJFvnIzUvqf4q\.[\w-]{22}$/);
    expect(verifyToken(token, SECRET)).toBe(ID);
  });

  it("are URL-safe", () => {
    expect(encodeURIComponent(signToken(ID, SECRET))).toBe(signToken(ID, SECRET));
  });

  it("refuse another secret, another id, an altered signature and junk", () => {
    const token = signToken(ID, SECRET);
    const sig = token.split(".")[1]!;
    expect(verifyToken(token, "another-secret-0123456789abcdef")).toBeNull();
    expect(verifyToken(`msg_0mwq18yo3jJFvnIzUvqf4r.${sig}`, SECRET)).toBeNull();
    expect(verifyToken(`${ID}.${sig.slice(0, -1)}${sig.endsWith("A") ? "B" : "A"}`, SECRET)).toBeNull();
    expect(verifyToken(`${ID}.`, SECRET)).toBeNull();
    for (const junk of ["", ".", ID, `ct_abc.${sig}`, `msg_../x.${sig}`, `${token}x`]) expect(verifyToken(junk, SECRET), junk).toBeNull();
  });
});
