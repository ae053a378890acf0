import { expect, test } from "./fixtures/test.ts";

test("an unauthenticated visit to a dashboard page goes to the sign-in page", async ({ page, seed }) => {
  await page.goto(`/w/${seed.alpha.id}/keys`);
  await expect(page).toHaveURL(/\/sign-in\?callbackUrl=/);
  await expect(page.getByRole("heading", { name: "Sign in to svc" })).toBeVisible();
  await page.goto("/");
  await expect(page).toHaveURL(/\/sign-in$/);
});

test("a wrong password shows an error and signs nobody in", async ({ page, seed }) => {
  await page.goto("/sign-in");
  await page.getByLabel("E-mail").fill(seed.admin.email);
  await page.getByLabel("Password").fill("not-the-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Wrong e-mail or password." })).toBeVisible();
  await expect(page.getByLabel("Password")).toHaveValue("");
  await expect(page).toHaveURL(/\/sign-in$/);
  await page.goto(`/w/${seed.alpha.id}/keys`);
  await expect(page).toHaveURL(/\/sign-in\?callbackUrl=/);
});

test("sign-in returns to the page asked for, and sign-out ends the session", async ({ page, seed }) => {
  await page.goto(`/w/${seed.beta.id}/keys`);
  await page.getByLabel("E-mail").fill(seed.admin.email);
  await page.getByLabel("Password").fill(seed.admin.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  // Back in the workspace asked for, on its home (an admin's is the overview).
  await expect(page).toHaveURL(new RegExp(`/w/${seed.beta.id}(/overview|/keys)?$`));
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "API keys" }).click();
  await expect(page.getByRole("row", { name: new RegExp(seed.beta.key) })).toBeVisible();
  const session = (await page.context().cookies()).find((c) => c.name.endsWith("next-auth.session-token"));
  expect(session).toMatchObject({ httpOnly: true, sameSite: "Lax" });

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in$/);
  await page.goto(`/w/${seed.beta.id}/keys`);
  await expect(page).toHaveURL(/\/sign-in\?callbackUrl=/);
});

test("a workspace the user is not a member of is not found", async ({ page, seed, signIn }) => {
  await signIn(seed.support);
  const response = await page.goto(`/w/${seed.beta.id}/keys`);
  expect(response?.status()).toBe(404);
});

test("a callbackUrl to another site is dropped: after the form's sign-in the user stays on this site", async ({ page, seed, baseURL }) => {
  const offsite: string[] = [];
  await page.route(
    (url) => url.hostname === "evil.example",
    (route) => {
      offsite.push(route.request().url());
      return route.abort();
    },
  );
  // "/\t/evil.example/": a browser drops the TAB and reads "//evil.example/", another host.
  await page.goto("/sign-in?callbackUrl=%2F%09%2Fevil.example%2F");
  await page.getByLabel("E-mail").fill(seed.admin.email);
  await page.getByLabel("Password").fill(seed.admin.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  // The home page, which sends an admin on to their first workspace.
  await expect(page).toHaveURL(new RegExp(`^${baseURL}/w/[^/]+(/overview)?$`));
  expect(offsite).toEqual([]);
});
