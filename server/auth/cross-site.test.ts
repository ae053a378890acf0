import { describe, expect, it } from "vitest";
import { crossSiteRefusal } from "./cross-site.ts";

// Which POSTs to the dashboard's API are refused as cross-site (issue 30): the table of
// cross-site.ts, header by header. The real route is tested over HTTP in e2e/api/dashboard-guards.test.ts.

const APP_URL = "https://svc.example.com";
const JSON_TYPE = { "content-type": "application/json", host: "svc.example.com" };
const refused = (headers: Record<string, string>, method = "POST") => crossSiteRefusal(method, new Headers(headers), APP_URL);

describe("crossSiteRefusal", () => {
  it.each([
    ["Sec-Fetch-Site same-origin", { "sec-fetch-site": "same-origin" }],
    ["Sec-Fetch-Site same-origin, whatever the Origin", { "sec-fetch-site": "same-origin", origin: "https://evil.example" }],
    ["APP_URL's origin", { origin: "https://svc.example.com" }],
    ["the request's own host (an internal address beside APP_URL)", { origin: "http://10.0.0.5:3000", host: "10.0.0.5:3000" }],
    ["neither header (a tool on a server)", {}],
    ["a JSON type with parameters", { "content-type": "Application/JSON; charset=utf-8" }],
  ])("carries out a JSON POST with %s", (_name, headers) => {
    expect(refused({ ...JSON_TYPE, ...headers })).toBeNull();
  });

  it.each([
    ["Sec-Fetch-Site cross-site", { "sec-fetch-site": "cross-site" }],
    ["Sec-Fetch-Site same-site (a sibling subdomain)", { "sec-fetch-site": "same-site", origin: "https://blog.example.com" }],
    ["Sec-Fetch-Site none", { "sec-fetch-site": "none" }],
    ["a foreign Origin", { origin: "https://evil.example" }],
    ["a foreign Origin naming our host on another port", { origin: "https://svc.example.com:8443" }],
    ["Origin null (a sandboxed frame)", { origin: "null" }],
  ])("refuses a JSON POST with %s", (_name, headers) => {
    expect(refused({ ...JSON_TYPE, ...headers })).toMatch(/Cross-site request refused/);
  });

  it.each(["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", ""])(
    "refuses a POST of %j, which a cross-site form can send",
    (type) => {
      expect(refused({ "content-type": type, "sec-fetch-site": "same-origin" })).toMatch(/JSON only/);
    },
  );

  it("leaves reads (GET) alone", () => {
    expect(refused({ origin: "https://evil.example" }, "GET")).toBeNull();
  });
});
