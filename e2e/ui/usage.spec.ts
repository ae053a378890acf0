import type { Page } from "@playwright/test";
import { setMode } from "./fixtures/messages.ts";
import { expect, test } from "./fixtures/test.ts";

// The usage page on the "Usage" workspace seeded by fixtures/seed.ts: limits of 50 a month and
// 20 a day per channel, 3 live WhatsApp messages, 2 live e-mails and 1 live SMS of 2 segments
// today, and 4 + 1 + 1 test messages that do not count; and "Usage unlimited", without a monthly
// limit. Every channel of the registry has its place (SMS, issue 49).

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
  await expect(month).toHaveAttribute("aria-valuenow", "6");
  await expect(month).toHaveAttribute("aria-valuemax", "50");
  await expect(month).toHaveAttribute("aria-valuetext", "6 of 50 (WhatsApp 3, e-mail 2, SMS 1)");
  await expect(page.getByText("6 of 50 (WhatsApp 3, e-mail 2, SMS 1)")).toBeVisible();
  // D97: what carriers bill, the live SMS's segments.
  await expect(page.getByTestId("usage-sms_segments")).toHaveText(
    "SMS segments this month: 2, what carriers bill (an SMS is one or more segments).",
  );

  const whatsappToday = page.getByRole("progressbar", { name: "WhatsApp today" });
  await expect(whatsappToday).toHaveAttribute("aria-valuenow", "3");
  await expect(whatsappToday).toHaveAttribute("aria-valuemax", "20");
  const emailToday = page.getByRole("progressbar", { name: "E-mail today" });
  await expect(emailToday).toHaveAttribute("aria-valuenow", "2");
  await expect(emailToday).toHaveAttribute("aria-valuemax", "20");
  const smsToday = page.getByRole("progressbar", { name: "SMS today" });
  await expect(smsToday).toHaveAttribute("aria-valuenow", "1");
  await expect(smsToday).toHaveAttribute("aria-valuemax", "20");

  // The chart: recharts' SVG with today's live bars (WhatsApp, e-mail and SMS, stacked).
  const chart = page.locator(".recharts-wrapper svg").first();
  await expect(chart).toBeVisible();
  const bars = page.locator(".recharts-bar-rectangle");
  await expect(bars).toHaveCount(3);
  const legend = page.locator(".recharts-legend-wrapper");
  await expect(legend).toContainText("WhatsApp (live)");
  await expect(legend).toContainText("E-mail (live)");
  await expect(legend).toContainText("SMS (live)");
  await expect(legend).not.toContainText("(test)");

  // The same numbers as a table, for those who cannot see the chart.
  await page.getByText("Show the numbers").click();
  const today = new Date().toISOString().slice(0, 10);
  const todayRow = page.getByRole("table", { name: "Messages per day" }).locator(`tr:has(time[datetime="${today}"])`);
  await expect(todayRow.locator("td")).toHaveText(["3", "2", "1"]);

  // The top bar's switch shows the test messages instead; the limits stay live.
  await setMode(page, "test");
  await expect(legend).toContainText("WhatsApp (test)");
  await expect(legend).not.toContainText("(live)");
  await expect(legend).toContainText("SMS (test)");
  await expect(bars).toHaveCount(3);
  await expect(page.getByRole("heading", { level: 2, name: /^Test messages day by day/ })).toBeVisible();
  await expect(todayRow.locator("td")).toHaveText(["4", "1", "1"]);
  await expect(month).toHaveAttribute("aria-valuenow", "6");

  const totals = page.getByRole("table", { name: "Live and test messages this month" });
  await expect(totals.getByRole("row", { name: /^WhatsApp/ }).locator("td")).toHaveText(["3", "4", "7"]);
  await expect(totals.getByRole("row", { name: /^E-mail/ }).locator("td")).toHaveText(["2", "1", "3"]);
  await expect(totals.getByRole("row", { name: /^SMS/ }).locator("td")).toHaveText(["1", "1", "2"]);
  await expect(totals.getByRole("row", { name: /^Total/ }).locator("td")).toHaveText(["6", "6", "12"]);
});

test("a workspace without a monthly limit says so", async ({ page, seed, signIn }) => {
  await signIn(seed.usage.user);
  await openUsage(page, seed.usage.unlimitedId);
  await expect(page.getByText("1 (WhatsApp 1, e-mail 0, SMS 0) · no monthly limit")).toBeVisible();
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
  // This month: 3 + 2 + 1 live (test messages do not count); last month (seeded counters): 41 + 7.
  await expect(months.locator("tbody tr").first().locator("time")).toHaveAttribute("datetime", period(0));
  await expect(months.locator(`tr:has(time[datetime="${period(0)}"]) td`)).toHaveText(["3", "2", "1", "6"]);
  await expect(months.locator(`tr:has(time[datetime="${period(1)}"]) td`)).toHaveText(["41", "7", "0", "48"]);
  await expect(months.locator(`tr:has(time[datetime="${period(2)}"]) td`)).toHaveText(["0", "0", "0", "0"]);
});
