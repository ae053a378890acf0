import { expect, test } from "./fixtures/test.ts";

test.use({ permissions: ["clipboard-read", "clipboard-write"] });

test("an admin creates a key, sees it once, uses it, and revokes it", async ({ page, request, seed, signIn }) => {
  await signIn(seed.admin);
  await expect(page).toHaveURL(new RegExp(`/w/${seed.alpha.id}/keys$`));
  const name = `E2E live key ${Date.now()}`;

  await page.getByRole("button", { name: "Create API key" }).click();
  const form = page.getByRole("dialog", { name: "Create API key" });
  await form.getByLabel("Name").fill(name);
  await form.getByLabel(/^Live/).check();
  // "All scopes" by default, stored as such: the key also holds scopes added later.
  const group = form.getByRole("group", { name: "Scopes" });
  await expect(group.getByRole("radio", { name: /^All scopes/ })).toBeChecked();
  await expect(group.getByRole("checkbox")).toHaveCount(0);
  await group.getByRole("radio", { name: "Only the scopes chosen here" }).check();
  const scopes = group.getByRole("checkbox");
  // Every scope of server/keys/scopes.ts, events:read and events:write (D61), webhooks:read and webhooks:write (D77), flows:write (D98),
  // messages:write (D91) and channels:read (D92) included.
  await expect(scopes).toHaveCount(17);
  for (const box of await scopes.all()) await expect(box).toBeChecked();
  await group.getByRole("radio", { name: /^All scopes/ }).check();
  await form.getByRole("button", { name: "Create key" }).click();

  const shown = page.getByRole("dialog", { name: "API key created" });
  await expect(shown.getByText("you will not see it again")).toBeVisible();
  const key = await shown.getByLabel("Your new API key").inputValue();
  expect(key).toMatch(/^svc_live_[0-9A-Za-z]{32,}$/);
  await shown.getByRole("button", { name: "Copy" }).click();
  await expect(shown.getByRole("status")).toHaveText("Copied.");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
  await shown.getByRole("button", { name: "Done" }).click();
  await expect(shown).toBeHidden();

  // Shown once: afterwards only the prefix and the last four characters, on screen and in the page.
  const row = page.getByRole("row", { name: new RegExp(name) });
  await expect(row).toContainText(`svc_live_…${key.slice(-4)}`);
  await expect(row).toContainText("Active");
  await expect(row).toContainText("All scopes");
  expect(await page.content()).not.toContain(key);
  await page.reload();
  await expect(row).toContainText(`svc_live_…${key.slice(-4)}`);
  expect(await page.content()).not.toContain(key);

  const ok = await request.get("/api/v1/", { headers: { Authorization: `Bearer ${key}` } });
  expect(ok.status()).toBe(200);
  expect(await ok.json()).toMatchObject({ ok: true, workspace: seed.alpha.id, mode: "live" });

  await row.getByRole("button", { name: `Revoke ${name}` }).click();
  const confirm = page.getByRole("alertdialog", { name: `Revoke “${name}”?` });
  await expect(confirm).toContainText(`svc_live_…${key.slice(-4)}`);
  await confirm.getByRole("button", { name: "Revoke key" }).click();
  await expect(confirm).toBeHidden();
  await expect(row).toContainText("Revoked");
  await expect(row.getByRole("button", { name: /Revoke/ })).toHaveCount(0);

  const refused = await request.get("/api/v1/", { headers: { Authorization: `Bearer ${key}` } });
  expect(refused.status()).toBe(401);
  const body = (await refused.json()) as { error: { type: string; message: string } };
  expect(body.error.type).toBe("authentication");
  expect(body.error.message).toEqual(expect.any(String));
});

test("cancelling the revoke confirmation keeps the key", async ({ page, seed, signIn }) => {
  await signIn(seed.admin);
  const row = page.getByRole("row", { name: new RegExp(seed.alpha.key) });
  await row.getByRole("button", { name: `Revoke ${seed.alpha.key}` }).click();
  const confirm = page.getByRole("alertdialog");
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(confirm).toBeHidden();
  await expect(row).toContainText("Active");
});

test("a key needs at least one scope", async ({ page, seed, signIn }) => {
  await signIn(seed.admin);
  await page.getByRole("button", { name: "Create API key" }).click();
  const form = page.getByRole("dialog", { name: "Create API key" });
  await form.getByLabel("Name").fill("No scopes");
  await form.getByRole("radio", { name: "Only the scopes chosen here" }).check();
  for (const box of await form.getByRole("checkbox").all()) await box.uncheck();
  await form.getByRole("button", { name: "Create key" }).click();
  await expect(form.getByRole("alert")).toHaveText("Choose at least one scope.");
  await page.keyboard.press("Escape");
  await expect(form).toBeHidden();
  await expect(page.getByRole("row", { name: /No scopes/ })).toHaveCount(0);
});
