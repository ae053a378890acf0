import { inject } from "vitest";
import { describe, expect, it } from "vitest";

// D56, D60: the public docs pages, as the server renders them: /docs starts with the official
// client (install and a send), and no page shows an internal decision number.
const baseUrl = inject("api").baseUrl;
const page = async (path: string) => {
  const res = await fetch(`${baseUrl}${path}`);
  expect(res.status, path).toBe(200);
  return (await res.text()).replace(/<script[\s\S]*?<\/script>/g, "");
};

describe("/docs pages", () => {
  it("open /docs with the quickstart, then the official TypeScript client", async () => {
    const html = await page("/docs");
    expect(html).toContain("Official TypeScript client");
    expect(html).toContain("npm install /path/to/svc/packages/client");
    expect(html).toContain("svc.messages.send(");
    expect(html.indexOf("Official TypeScript client")).toBeLessThan(html.indexOf("<noscript"));
    expect(html.indexOf("Quickstart")).toBeLessThan(html.indexOf("Official TypeScript client"));
  });

  it.each([
    "/docs",
    "/docs/getting-started",
    "/docs/errors",
    "/docs/webhooks",
    "/docs/whatsapp",
    "/docs/email",
    "/docs/journeys",
    "/docs/usage",
  ])("%s carries no decision number", async (path) => {
    const text = (await page(path)).replace(/<[^>]+>/g, " ");
    expect(text.match(/\(D\d+|\bD\d{1,2}\b(?![\w'])/g)).toBeNull();
  });
});
