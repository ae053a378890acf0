import { checkPageAtWidths } from "./fixtures/page-checks.ts";
import { expect, test } from "./fixtures/test.ts";

// Paused channels on the seeded "Paused" workspace (D90, D93): a WhatsApp line WhatsApp stopped
// for a payment problem, and an e-mail relay whose hard-bounce rate paused its journey sends.
// Each card shows a banner saying why; an admin resumes the line with its Resume button, a
// support user sees the banner without the button; the audit log records the resume. Checked at
// 1440 and 390 px.

test("a paused channel shows why in a banner, and an admin resumes it", async ({ page, seed, signIn }) => {
  const { paused } = seed;
  await signIn(paused.admin);
  await page.goto(`/w/${paused.id}/channels`);
  await expect(page.getByRole("heading", { level: 1, name: "Channels" })).toBeVisible();
  const line = page.getByRole("article", { name: "Stopped line" });
  const relay = page.getByRole("article", { name: "Bouncing relay" });
  const lineBanner = line.getByRole("status", { name: "Stopped line is paused" });
  await expect(lineBanner).toContainText("problem with the business account's payment method");
  await expect(line.locator(".channel-head").getByText("Paused", { exact: true })).toBeVisible();
  await expect(relay.getByRole("status", { name: "Bouncing relay is paused" })).toContainText("hard-bounce rate");
  // The relay's rolling rates, which the guard watches.
  await expect(relay.getByText("Complaints 0.11 % · hard bounces 5.00 % · 1,000 e-mails sent")).toBeVisible();
  await checkPageAtWidths(page, "channels-paused");

  await line.getByRole("button", { name: "Resume Stopped line" }).click();
  await expect(lineBanner).toBeHidden();
  await expect(line.locator(".channel-head").getByText("Connected", { exact: true })).toBeVisible();
  // The relay stays paused until it is resumed itself.
  await expect(relay.getByRole("status", { name: "Bouncing relay is paused" })).toBeVisible();

  // The audit log names the resume, who did it and why the channel was paused.
  await page.goto(`/w/${paused.id}/audit`);
  const entry = page.getByRole("row").filter({ hasText: "Resumed a paused channel" });
  await expect(entry).toHaveCount(1);
  await expect(entry).toContainText(paused.admin.email);
  await expect(entry).toContainText("WhatsApp, paused for payment");
});

test("a support user sees the banner without the Resume button", async ({ page, seed, signIn }) => {
  const { paused } = seed;
  await signIn(paused.support);
  await page.goto(`/w/${paused.id}/channels`);
  const relay = page.getByRole("article", { name: "Bouncing relay" });
  await expect(relay.getByRole("status", { name: "Bouncing relay is paused" })).toBeVisible();
  await expect(relay.getByRole("button", { name: "Resume Bouncing relay" })).toHaveCount(0);
});
