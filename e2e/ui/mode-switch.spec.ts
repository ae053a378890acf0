import type { Page } from "@playwright/test";
import { messageRow, messageRows, setMode } from "./fixtures/messages.ts";
import { expect, test } from "./fixtures/test.ts";

// The top bar's test/live switch, on the "Messages" workspace seeded by fixtures/seed.ts: test
// messages (the inspector's examples, a failed one and 30 to one number) and one live message
// that stays queued. The switch is remembered per user in a cookie of the browser
// (app/_lib/dashboard-mode.ts), so each test's browser context starts from the default: live,
// since the workspace has a live message.

const toggle = (page: Page) => page.getByRole("switch", { name: "Test data" });

async function go(page: Page, workspace: string, section: "overview" | "usage" | "messages", heading: string): Promise<void> {
  await page.goto(`/w/${workspace}/${section}`);
  await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
}

test("test data switched on in the Overview shows in Usage and Messages, survives a reload, and is the user's own", async ({
  page,
  seed,
  signIn,
}) => {
  const m = seed.messages;
  await signIn(m.admin);
  await go(page, m.id, "overview", "Overview");
  await expect(toggle(page)).toHaveAttribute("aria-checked", "false");
  const today = page.getByRole("region", { name: "Today" });
  await expect(today).toContainText("live WhatsApp messages");
  // Live: the queued live message today (and any a running test sent live).
  const whatsappToday = async () => Number((await today.locator(".figure-value").first().textContent())!.replace(/\D/g, ""));
  const live = await whatsappToday();
  expect(live).toBeGreaterThanOrEqual(1);
  expect(live).toBeLessThan(32);

  await setMode(page, "test");
  await expect(today).toContainText("test WhatsApp messages");
  expect(await whatsappToday()).toBeGreaterThanOrEqual(32);
  await expect(page.getByRole("region", { name: "Outcomes" }).getByRole("row", { name: /^Failed/ })).toBeVisible();

  // Usage: the chart of test messages, its own checkbox gone.
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Usage" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Usage" })).toBeVisible();
  await expect(toggle(page)).toHaveAttribute("aria-checked", "true");
  await expect(page.getByRole("heading", { level: 2, name: /^Test messages day by day/ })).toBeVisible();
  await expect(page.locator(".recharts-legend-wrapper")).toContainText("WhatsApp (test)");
  await expect(page.getByLabel("Show test messages")).toHaveCount(0);

  // Messages: the test messages, not the live one.
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Messages" }).click();
  await expect(messageRows(page).first()).toBeVisible();
  await expect(page.locator(".table-wrap[aria-busy='true']")).toHaveCount(0);
  await expect(messageRow(messageRows(page), m.whatsappTest)).toBeVisible();
  await expect(messageRow(messageRows(page), m.liveQueued)).toHaveCount(0);

  // A reload (the server renders the page from the user's cookie) keeps it.
  await page.reload();
  await expect(toggle(page)).toHaveAttribute("aria-checked", "true");
  await expect(messageRow(messageRows(page), m.whatsappTest)).toBeVisible();
  await expect(messageRow(messageRows(page), m.liveQueued)).toHaveCount(0);

  // Another user of the same browser and workspace still sees live data.
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/sign-in/);
  await signIn(m.support);
  await go(page, m.id, "messages", "Messages");
  await expect(toggle(page)).toHaveAttribute("aria-checked", "false");
  await expect(messageRow(messageRows(page), m.liveQueued)).toBeVisible();
  await expect(messageRow(messageRows(page), m.whatsappTest)).toHaveCount(0);
  await go(page, m.id, "overview", "Overview");
  await expect(page.getByRole("region", { name: "Today" })).toContainText("live WhatsApp messages");

  // The first user, back on this browser, finds test data where they left it.
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/sign-in/);
  await signIn(m.admin);
  await go(page, m.id, "usage", "Usage");
  await expect(toggle(page)).toHaveAttribute("aria-checked", "true");
});

test("a workspace with only test messages opens on test data", async ({ page, seed, signIn }) => {
  // The "Alpha" workspace of fixtures/seed.ts has sent no live message.
  await signIn(seed.admin);
  await go(page, seed.alpha.id, "usage", "Usage");
  await expect(toggle(page)).toHaveAttribute("aria-checked", "true");
});
