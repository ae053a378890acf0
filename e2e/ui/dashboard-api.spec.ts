import { expect, test } from "./fixtures/test.ts";

// /api/trpc is authenticated by the session cookie, so it must not act on forged requests.

test("the dashboard API refuses posts a cross-site form could send", async ({ page, seed, signIn }) => {
  await signIn(seed.admin);
  const response = await page.request.post("/api/trpc/keys.create", {
    headers: { "x-svc-workspace": seed.alpha.id, "content-type": "text/plain" },
    data: JSON.stringify({ name: "forged", mode: "live" }),
  });
  expect(response.status()).toBe(403);
  await page.reload();
  await expect(page.getByRole("row", { name: /forged/ })).toHaveCount(0);
});
