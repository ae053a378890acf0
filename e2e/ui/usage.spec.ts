import type { Page } from "@playwright/test";
import { setMode } from "./fixtures/messages.ts";
import { expect, test } from "./fixtures/test.ts";

// The usage page on the "Usage" workspace seeded by fixtures/seed.ts: limits of 50 a month and
// 20 a day per channel, 3 live WhatsApp messages and 2 live e-mails today, and 4 + 1 test
// messages that do not count; and "Usage unlimited", without a monthly limit.

async function openUsage(page: Page, workspace: string): Promise<void> {
  await page.goto(`/w/${workspace}/keys`);
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Usage" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Usage" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Usage" })).toHaveAttribute("aria-current", "page");
}

test("this month's live messages against the limits, day by day, test versus live", async ({ page, seed, signIn }) => {
  await signIn(seed.usage.user);
  await openUsage(page, seed.usage.id);

  const month = page.getByRole("progressbar", { name: "Live messages this month" });
  await expect(month).toHaveAttribute("aria-valuenow", "5");
  await expect(month).toHaveAttribute("aria-valuemax", "50");
  await expect(month).toHaveAttribute("aria-valuetext", "5 of 50 (WhatsApp 3, e-mail 2)");
  await expect(page.getByText("5 of 50 (WhatsApp 3, e-mail 2)")).toBeVisible();

  const whatsappToday = page.getByRole("progressbar", { name: "WhatsApp today" });
  await expect(whatsappToday).toHaveAttribute("aria-valuenow", "3");
  await expect(whatsappToday).toHaveAttribute("aria-valuemax", "20");
  const emailToday = page.getByRole("progressbar", { name: "E-mail today" });
  await expect(emailToday).toHaveAttribute("aria-valuenow", "2");
  await expect(emailToday).toHaveAttribute("aria-valuemax", "20");

  // The chart: recharts' SVG with today's live bars (WhatsApp and e-mail, stacked).
  const chart = page.locator(".recharts-wrapper svg").first();
  await expect(chart).toBeVisible();
  const bars = page.locator(".recharts-bar-rectangle");
  await expect(bars).toHaveCount(2);
  const legend = page.locator(".recharts-legend-wrapper");
  await expect(legend).toContainText("WhatsApp (live)");
  await expect(legend).toContainText("E-mail (live)");
  await expect(legend).not.toContainText("(test)");

  // The same numbers as a table, for those who cannot see the chart.
  await page.getByText("Show the numbers").click();
  const today = new Date().toISOString().slice(0, 10);
  const todayRow = page.getByRole("table", { name: "Messages per day" }).locator(`tr:has(time[datetime="${today}"])`);
  await expect(todayRow.locator("td")).toHaveText(["3", "2"]);

  // The top bar's switch shows the test messages instead; the limits stay live.
  await setMode(page, "test");
  await expect(legend).toContainText("WhatsApp (test)");
  await expect(legend).not.toContainText("(live)");
  await expect(bars).toHaveCount(2);
  await expect(page.getByRole("heading", { level: 2, name: /^Test messages day by day/ })).toBeVisible();
  await expect(todayRow.locator("td")).toHaveText(["4", "1"]);
  await expect(month).toHaveAttribute("aria-valuenow", "5");

  const totals = page.getByRole("table", { name: "Live and test messages this month" });
  await expect(totals.getByRole("row", { name: /^WhatsApp/ }).locator("td")).toHaveText(["3", "4", "7"]);
  await expect(totals.getByRole("row", { name: /^E-mail/ }).locator("td")).toHaveText(["2", "1", "3"]);
  await expect(totals.getByRole("row", { name: /^Total/ }).locator("td")).toHaveText(["5", "5", "10"]);
});

test("a workspace without a monthly limit says so", async ({ page, seed, signIn }) => {
  await signIn(seed.usage.user);
  await openUsage(page, seed.usage.unlimitedId);
  await expect(page.getByText("1 (WhatsApp 1, e-mail 0) · no monthly limit")).toBeVisible();
  await expect(page.getByRole("progressbar", { name: "Live messages this month" })).toHaveCount(0);
  await expect(page.getByRole("progressbar", { name: "WhatsApp today" })).toHaveAttribute("aria-valuenow", "1");
  await expect(page.getByRole("progressbar", { name: "WhatsApp today" })).toHaveAttribute("aria-valuemax", "500");
  await expect(page.locator(".recharts-bar-rectangle")).toHaveCount(1);
});

test("past months are listed too, newest first, live messages per channel", async ({ page, seed, signIn }) => {
  await signIn(seed.usage.user);
  await openUsage(page, seed.usage.id);
  const months = page.getByRole("table", { name: "Live messages per month, newest first" });
  await expect(months.locator("tbody tr")).toHaveCount(12);
  const now = new Date();
  const period = (back: number) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1)).toISOString().slice(0, 7);
  // This month: 3 + 2 live (test messages do not count); last month (seeded counters): 41 + 7.
  await expect(months.locator("tbody tr").first().locator("time")).toHaveAttribute("datetime", period(0));
  await expect(months.locator(`tr:has(time[datetime="${period(0)}"]) td`)).toHaveText(["3", "2", "5"]);
  await expect(months.locator(`tr:has(time[datetime="${period(1)}"]) td`)).toHaveText(["41", "7", "48"]);
  await expect(months.locator(`tr:has(time[datetime="${period(2)}"]) td`)).toHaveText(["0", "0", "0"]);
});
