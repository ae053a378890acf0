import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "./fixtures/test.ts";

// D53 in the dashboard: a workspace whose stored credentials this server's secret cannot open
// (seeded as a restore from another installation would leave it) shows a banner on every
// page, naming each channel and endpoint, linked, with the fix. Healthy workspaces show none.

test("an admin sees which channel and endpoint cannot work and how to fix it, on every page", async ({ page, seed, signIn }) => {
  const { restored } = seed;
  await signIn(restored.admin);
  for (const path of ["overview", "messages", "keys"]) {
    await page.goto(`/w/${restored.id}/${path}`);
    const banner = page.getByRole("alert", { name: "Configuration problems" });
    await expect(banner).toContainText("2 things cannot work until the server's configuration is fixed");
    await expect(banner.getByRole("listitem").filter({ hasText: restored.channelName })).toContainText(
      "Start the service with the secret they were stored with, or connect the channel again.",
    );
    await expect(banner.getByRole("listitem").filter({ hasText: restored.endpointUrl })).toContainText("register the endpoint again");
  }
  await page
    .getByRole("alert", { name: "Configuration problems" })
    .getByRole("link", { name: `Webhook endpoint ${restored.endpointUrl}` })
    .click();
  await expect(page).toHaveURL(new RegExp(`/w/${restored.id}/webhooks/we_`));
  await expect(page.getByRole("heading", { level: 1, name: "Delivery log" })).toBeVisible();
  await expect(page.getByText(restored.endpointUrl).first()).toBeVisible();
});

test("support staff see the banner too, and it fits a phone's screen", async ({ page, seed, signIn }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(seed.restored.support);
  await page.goto(`/w/${seed.restored.id}/messages`);
  const banner = page.getByRole("alert", { name: "Configuration problems" });
  await banner.getByRole("link", { name: `Channel ${seed.restored.channelName}` }).click();
  await expect(page).toHaveURL(new RegExp(`/w/${seed.restored.id}/channels$`));
  await expect(banner).toBeVisible();
  const width = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, viewport: window.innerWidth }));
  expect(width.scroll).toBeLessThanOrEqual(width.viewport);
  const { violations } = await new AxeBuilder({ page }).include(".config-banner").analyze();
  expect(violations.filter((v) => v.impact === "serious" || v.impact === "critical")).toEqual([]);
});

test("a workspace whose credentials open shows no banner", async ({ page, seed, signIn }) => {
  await signIn(seed.admin);
  await page.goto(`/w/${seed.alpha.id}/overview`);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByRole("alert", { name: "Configuration problems" })).toHaveCount(0);
});
