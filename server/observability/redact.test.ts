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
    // The dashboard's tRPC GETs: the input is URL-encoded JSON.
    [
      `/api/trpc/contacts.find?batch=1&input=${encodeURIComponent(JSON.stringify({ 0: { json: { phone: "+55 (11) 98765-4321" } } }))}`,
      '/api/trpc/contacts.find?batch=1&input={"0":{"json":{"phone":"[phone]"}}}',
    ],
    [
      `/api/trpc/contacts.search,messages.search?batch=1&input=${encodeURIComponent(
        JSON.stringify({
          0: { json: { query: "ana.silva+vip@example.com", limit: 20 } },
          1: { json: { query: "11987654321", cursor: null } },
        }),
      )}`,
      '/api/trpc/contacts.search,messages.search?batch=1&input={"0":{"json":{"query":"[email]","limit":20}},"1":{"json":{"query":"[phone]","cursor":null}}}',
    ],
    ["/api/v1/contacts?q=Ana%20%2B55.11.98765.4321%20x", "/api/v1/contacts?q=Ana [phone] x"],
    ["/api/v1/contacts?q=ana%40exa%ZZ", "/api/v1/contacts?q=[email]"],
    ["/api/v1/contacts?ana%40example.com", "/api/v1/contacts?[email]"],
    ["/api/v1/contacts?q=55+11+98765+4321", "/api/v1/contacts?q=[phone]"],
  ])("%s", (url, expected) => expect(redactUrl(url)).toBe(expected));

  it.each([
    "/api/v1/messages/msg_3kQz81LmPq",
    "/api/v1/messages?limit=100&after=msg_1",
    "/w/acme-k3j9x2/contacts",
    "/api/v1/usage?month=2026-11",
    "/api/v1/messages?since=2026-11-24",
    "/api/v1/messages?since=2026-11-24T10:00:00.000Z&limit=100",
    `/api/trpc/messages.list?input=${encodeURIComponent(JSON.stringify({ 0: { json: { contactId: "ct_5511987654321x", limit: 50 } } }))}`,
  ])("keeps %s", (url) => expect(redactUrl(url)).toBe(url));
});
