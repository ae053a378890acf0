import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { fixtures } from "../support/client.ts";
import { signIn } from "../support/dashboard.ts";

// The dashboard's doors against another site (issue 30), through the real server with a real
// session cookie: the sign-in page's callbackUrl never sends a signed-in user off this origin
// (server/auth/callback-url.ts), and a tRPC mutation sent from another origin is refused
// without being carried out (server/auth/cross-site.ts).

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

describe("tRPC mutations from another origin", () => {
  const createTag = (name: string, headers: Record<string, string>, batch = false) =>
    fetch(`${baseUrl}/api/trpc/tags.create${batch ? "?batch=1" : ""}`, {
      method: "POST",
      headers: { cookie, "content-type": "application/json", "x-svc-workspace": fixtures().main!.id, ...headers },
      body: JSON.stringify(batch ? { 0: { name } } : { name }),
    });

  it("are refused with tRPC's 403, batched or not, and change nothing; the same origin's are carried out", async () => {
    const name = `guard-${randomUUID().slice(0, 8)}`;
    const foreign = await createTag(name, { origin: "https://evil.example" });
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toMatchObject({
      error: { message: expect.stringMatching(/^Cross-site request refused/), data: { code: "FORBIDDEN", httpStatus: 403 } },
    });
    const batched = await createTag(name, { origin: "https://evil.example" }, true);
    expect(batched.status).toBe(403);
    expect(await batched.json()).toMatchObject([{ error: { data: { code: "FORBIDDEN", httpStatus: 403, path: "tags.create" } } }]);
    const sibling = await createTag(name, { origin: baseUrl, "sec-fetch-site": "same-site" });
    expect(sibling.status).toBe(403);

    // Nothing was created: the same name is still free for the dashboard's own request.
    const own = await createTag(name, { origin: baseUrl });
    expect(own.status).toBe(200);
    expect(((await own.json()) as { result: { data: { name: string } } }).result.data.name).toBe(name);
    const again = await createTag(name, { "sec-fetch-site": "same-origin", origin: baseUrl });
    expect(again.status).toBe(409); // carried out, and the name is now taken
  });

  it("are carried out with Sec-Fetch-Site same-origin, and with neither header (a tool on a server)", async () => {
    expect((await createTag(`guard-${randomUUID().slice(0, 8)}`, { "sec-fetch-site": "same-origin" })).status).toBe(200);
    expect((await createTag(`guard-${randomUUID().slice(0, 8)}`, {})).status).toBe(200);
  });
});
