import { checkPageAtWidths } from "./fixtures/page-checks.ts";
import { expect, test } from "./fixtures/test.ts";

// The workspace's journey settings (issue 32: D65 time zone, D67 frequency caps) and its
// WhatsApp prices (D89) as an admin changes them: a wrong zone, a period over 30 days, a wrong
// amount and prices without a currency refused at their fields, good values saved and read
// back. In the Domain workspace (fixtures/seed.ts), whose e-mail channel no journey uses, so a
// cap there holds nobody else's messages; one test, as each save sends the whole form. A
// support user is told the page is for admins.

test("an admin sets the workspace's time zone and a WhatsApp cap; wrong values are refused at their fields", async ({
  page,
  seed,
  signIn,
}) => {
  // Four pages checked at two widths each (axe and a screenshot apiece).
  test.setTimeout(240_000);
  const d = seed.domain;
  await signIn(d.admin);
  await page.goto(`/w/${d.id}/settings`);
  await expect(page.getByRole("heading", { level: 1, name: "Settings" })).toBeVisible();
  const zone = page.getByLabel("Time zone");
  await expect(zone).toHaveValue(/.+/);

  await zone.fill("Mars/Olympus_Mons");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(zone).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByRole("alert").filter({ hasText: /time zone/i })).toBeVisible();

  await zone.fill("America/Sao_Paulo");
  await page.getByLabel("WhatsApp: messages").fill("3");
  await page.getByLabel("WhatsApp messages per period").fill("P40D");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("alert").filter({ hasText: /30 days/ })).toBeVisible();
  await expect(page.getByLabel("WhatsApp messages per period")).toHaveAttribute("aria-invalid", "true");

  await page.getByLabel("WhatsApp messages per period").fill("PT12H");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved." })).toBeVisible();
  await checkPageAtWidths(page, "settings-admin");

  await page.reload();
  await expect(page.getByLabel("Time zone")).toHaveValue("America/Sao_Paulo");
  await expect(page.getByLabel("WhatsApp: messages")).toHaveValue("3");
  await expect(page.getByLabel("WhatsApp messages per period")).toHaveValue("PT12H");
  await expect(page.getByLabel("E-mail: messages")).toHaveValue("");
  await expect(page.getByLabel("SMS: messages")).toHaveValue("");

  // WhatsApp prices: an amount of 7 decimals, then prices without a currency, each refused at its field.
  const prices = page.getByRole("group", { name: "WhatsApp prices" });
  const marketing = prices.getByLabel("Marketing", { exact: true });
  const currency = prices.getByLabel("Currency");
  await expect(currency).toHaveValue("");
  await marketing.fill("0.0000001");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(marketing).toHaveAttribute("aria-invalid", "true");
  await expect(prices.getByRole("alert")).toHaveText("Marketing: must be an amount such as 0.0625 (at most 6 decimals)");
  await marketing.fill("0.0625");
  await prices.getByLabel("Authentication international").fill("0.0357");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(currency).toHaveAttribute("aria-invalid", "true");
  await expect(prices.getByRole("alert")).toHaveText("Currency: the prices need a currency, such as USD.");
  await checkPageAtWidths(page, "settings-prices-refused");

  await currency.fill("eur");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved." })).toBeVisible();
  await expect(currency).toHaveValue("EUR");
  await page.reload();
  await expect(prices.getByLabel("Marketing", { exact: true })).toHaveValue("0.0625");
  await expect(prices.getByLabel("Authentication international")).toHaveValue("0.0357");
  await expect(prices.getByLabel("Utility")).toHaveValue("");
  await expect(prices.getByLabel("Currency")).toHaveValue("EUR");
  await expect(page.getByLabel("Time zone")).toHaveValue("America/Sao_Paulo");
  await checkPageAtWidths(page, "settings-prices");

  // The audit log names the change, with the admin who made it.
  await page.goto(`/w/${d.id}/audit`);
  await expect(page.getByRole("row").filter({ hasText: "Changed the workspace's settings" }).first()).toContainText(d.admin.email);
});

test("a support user is told the settings are for admins, with nothing to change", async ({ page, seed, signIn }) => {
  const d = seed.domain;
  await signIn(d.support);
  await page.goto(`/w/${d.id}/settings`);
  await expect(
    page.getByRole("alert").filter({ hasText: "Only admins of this workspace can see the workspace's settings." }),
  ).toBeVisible();
  await expect(page.getByRole("group", { name: "WhatsApp prices" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Save" })).toHaveCount(0);
});
