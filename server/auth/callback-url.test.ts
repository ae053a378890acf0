import { describe, expect, it } from "vitest";
import { safeCallbackUrl } from "./callback-url.ts";

// The sign-in page's callbackUrl (issue 30): only a path of this site survives, after what
// browsers do to a URL (drop TAB, CR and LF, read "\" as "/"); anything else is "/".

const ORIGIN = "http://svc.test:3000";

describe("safeCallbackUrl", () => {
  it.each([
    ["/w/acme/keys", "/w/acme/keys"],
    ["/w/acme/messages?status=failed#top", "/w/acme/messages?status=failed#top"],
    ["/w/acme%20co/keys", "/w/acme%20co/keys"],
    ["http://svc.test:3000/w/acme/keys", "/w/acme/keys"], // an absolute URL of this very origin
  ])("keeps the path of this site %j", (value, expected) => {
    expect(safeCallbackUrl(value, ORIGIN)).toBe(expected);
  });

  it.each([
    ["TAB after the slash", "/\t/evil.example/"],
    ["CR after the slash", "/\r/evil.example/"],
    ["LF after the slash", "/\n/evil.example/"],
    ["CR LF inside the host", "/\r\n/evil.\nexample/"],
    ["a backslash for the second slash", "/\\evil.example"],
    ["two backslashes", "\\\\evil.example"],
    ["two slashes", "//evil.example"],
    ["two slashes after a dot segment", "/..//evil.example"],
    ["encoded slashes, relative", "%2F%2Fevil.example"],
    ["encoded slashes after a slash", "/%2F%2Fevil.example"],
    ["an encoded backslash", "/%5Cevil.example"],
    ["an encoded TAB", "/%09/evil.example"],
    ["another origin", "https://evil.example"],
    ["another origin with our path", "https://evil.example/w/acme/keys"],
    ["another port of our host", "http://svc.test:4000/w/acme"],
    ["another scheme of our host", "https://svc.test:3000/w/acme"],
    ["javascript:", "javascript:alert(document.domain)"],
    ["javascript: behind a TAB", "java\tscript:alert(1)"],
    ["data:", "data:text/html,<script>alert(1)</script>"],
    ["a relative reference", "evil.example"],
    ["malformed percent-encoding", "/w/%E0%A4%A"],
    ["empty", ""],
  ])("falls back to / for %s", (_name, value) => {
    expect(safeCallbackUrl(value, ORIGIN)).toBe("/");
  });

  it("falls back to / for what is not one string (a repeated query parameter, none)", () => {
    expect(safeCallbackUrl(["/w/acme", "//evil.example"], ORIGIN)).toBe("/");
    expect(safeCallbackUrl(undefined, ORIGIN)).toBe("/");
  });

  it("never answers a value a Location header cannot carry", () => {
    for (const c of ["\t", "\r", "\n", "\u0000", "\u007f"]) {
      const path = safeCallbackUrl(`/w/a${c}b`, ORIGIN);
      expect(path).toBe("/w/ab");
    }
  });
});
