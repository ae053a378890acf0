import { beforeAll, describe, expect, inject, it } from "vitest";
import { fixtures } from "../support/client.ts";
import { signIn } from "../support/dashboard.ts";

// The dashboard's doors against another site (issue 30), through the real server with a real
// session cookie: the sign-in page's callbackUrl never sends a signed-in user off this origin
// (server/auth/callback-url.ts).

const { baseUrl } = inject("api");
let cookie: string;

beforeAll(async () => {
  cookie = await signIn(baseUrl);
});

describe("the sign-in page's callbackUrl, signed in", () => {
  it.each([
    ["a TAB after the slash", "%2F%09%2Fevil.example%2F"],
    ["an LF after the slash", "%2F%0A%2Fevil.example%2F"],
    ["a CR after the slash", "%2F%0D%2Fevil.example%2F"],
    ["a backslash", "%2F%5Cevil.example"],
    ["two slashes", "%2F%2Fevil.example"],
    ["encoded slashes", "%2F%252F%252Fevil.example"],
    ["another origin", "https%3A%2F%2Fevil.example%2F"],
    ["javascript:", "javascript%3Aalert(1)"],
  ])("%s: redirects to this site's home page", async (_name, query) => {
    const res = await fetch(`${baseUrl}/sign-in?callbackUrl=${query}`, { headers: { cookie }, redirect: "manual" });
    expect(res.status).toBe(307);
    const location = res.headers.get("location")!;
    // As a browser follows it (the URL parser drops TAB, CR and LF, reads "\" as "/").
    const followed = new URL(location, baseUrl);
    expect(followed.origin).toBe(new URL(baseUrl).origin);
    expect(followed.pathname).toBe("/");
  });

  it("keeps a page of this site", async () => {
    const page = `/w/${fixtures().main!.id}/keys`;
    const res = await fetch(`${baseUrl}/sign-in?callbackUrl=${encodeURIComponent(page)}`, { headers: { cookie }, redirect: "manual" });
    expect(res.status).toBe(307);
    expect(new URL(res.headers.get("location")!, baseUrl).href).toBe(`${baseUrl}${page}`);
  });
});
