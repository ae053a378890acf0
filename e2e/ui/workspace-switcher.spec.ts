import { expect, test } from "./fixtures/test.ts";

test("the switcher lists both workspaces and switching changes the key list", async ({ page, seed, signIn }) => {
  await signIn(seed.admin);
  const switcher = page.getByLabel("Workspace");
  await expect(switcher.getByRole("option")).toHaveText([/^Alpha/, /^Beta/]);
  await expect(switcher).toHaveValue(seed.alpha.id);
  await expect(page.getByRole("row", { name: new RegExp(seed.alpha.key) })).toBeVisible();
  await expect(page.getByRole("row", { name: new RegExp(seed.beta.key) })).toHaveCount(0);

  await switcher.selectOption({ label: "Beta (admin)" });
  await expect(page).toHaveURL(new RegExp(`/w/${seed.beta.id}/keys$`));
  await expect(page.getByRole("row", { name: new RegExp(seed.beta.key) })).toBeVisible();
  await expect(page.getByRole("row", { name: new RegExp(seed.alpha.key) })).toHaveCount(0);
  await expect(page.getByLabel("Workspace")).toHaveValue(seed.beta.id);

  await page.getByLabel("Workspace").selectOption(seed.alpha.id);
  await expect(page).toHaveURL(new RegExp(`/w/${seed.alpha.id}/keys$`));
  await expect(page.getByRole("row", { name: new RegExp(seed.alpha.key) })).toBeVisible();
});
