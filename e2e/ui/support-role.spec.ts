import { expect, test } from "./fixtures/test.ts";

test("a support user sees the keys read-only", async ({ page, seed, signIn }) => {
  await signIn(seed.support);
  await expect(page).toHaveURL(new RegExp(`/w/${seed.alpha.id}/keys$`));
  await expect(page.getByRole("row", { name: new RegExp(seed.alpha.key) })).toBeVisible();
  await expect(page.getByText("You have read-only access")).toBeVisible();
  await expect(page.getByRole("button", { name: "Create API key" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: /Revoke/ })).toHaveCount(0);
  // One workspace only: its name, no switcher.
  await expect(page.getByRole("combobox", { name: "Workspace" })).toHaveCount(0);
  await expect(page.getByRole("banner")).toContainText(seed.alpha.name);
});

test("the server refuses key changes from a support user too", async ({ page, seed, signIn }) => {
  await signIn(seed.support);
  const response = await page.request.post("/api/trpc/keys.create", {
    headers: { "x-svc-workspace": seed.alpha.id, "content-type": "application/json" },
    data: { name: "sneaky", mode: "live" },
  });
  expect(response.ok()).toBe(false);
  const body = (await response.json()) as { error: { data: { type?: string } } };
  expect(body.error.data.type).toBe("forbidden");
  await page.reload();
  await expect(page.getByRole("row", { name: /sneaky/ })).toHaveCount(0);
});
