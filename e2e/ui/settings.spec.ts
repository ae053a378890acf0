import { checkPageAtWidths } from "./fixtures/page-checks.ts";
import { expect, test } from "./fixtures/test.ts";

// The workspace's journey settings (issue 32: D65 time zone, D67 frequency caps) as an admin
// changes them: a wrong zone and a period over 30 days refused at their fields, good values
// saved and read back. In the Domain workspace (fixtures/seed.ts), whose e-mail channel no
// journey uses, so a cap there holds nobody else's messages.

test("an admin sets the workspace's time zone and a WhatsApp cap; wrong values are refused at their fields", async ({
  page,
  seed,
  signIn,
}) => {
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
});
