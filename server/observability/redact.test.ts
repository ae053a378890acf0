import { describe, expect, it } from "vitest";
import { redactUrl } from "./redact.ts";

// D54: no phone number or e-mail address of a URL reaches the access log.
describe("redactUrl", () => {
  it.each([
    ["/api/v1/contacts?phone=%2B5511999990000&limit=10", "/api/v1/contacts?phone=[phone]&limit=10"],
    ["/api/v1/contacts?phone=+55 11 99999-0000", "/api/v1/contacts?phone=[phone]"],
    ["/api/v1/contacts?email=ana%40example.com", "/api/v1/contacts?email=[email]"],
    ["/api/v1/contacts/ana@example.com", "/api/v1/contacts/[email]"],
    ["/api/v1/contacts/+5511999990000", "/api/v1/contacts/[phone]"],
    ["/api/v1/contacts/(11) 99999-0000".replace(/ /g, "%20"), "/api/v1/contacts/[phone]"],
  ])("%s", (url, expected) => expect(redactUrl(url)).toBe(expected));

  it.each([
    "/api/v1/messages/msg_3kQz81LmPq",
    "/api/v1/messages?limit=100&after=msg_1",
    "/w/acme-k3j9x2/contacts",
    "/api/v1/usage?month=2026-11",
    "/api/v1/messages?since=2026-11-24",
  ])("keeps %s", (url) => expect(redactUrl(url)).toBe(url));
});
