import type { Page } from "@playwright/test";
import { listSettled, messageRow, messageRows, searchMessages, setMode } from "./fixtures/messages.ts";
import { expect, test } from "./fixtures/test.ts";

// The message inspector, in the "Messages" workspace seeded by fixtures/seed.ts: a test WhatsApp
// message and a test e-mail (both `read` once the server's inline pipeline has run), a test
// message to D35's failing number, and a live message whose provider never answers (it stays
// `queued`, collecting retries). Tests that send a message send their own.

async function openMessages(page: Page): Promise<void> {
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Messages" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Messages" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Messages" })).toHaveAttribute("aria-current", "page");
  // The table is fetched by the page's script: once it shows, the search form is live.
  await expect(messageRows(page).first()).toBeVisible();
}

async function filter(page: Page, label: string, value: string): Promise<void> {
  await page.getByLabel(label, { exact: true }).selectOption(value);
  await listSettled(page, label.toLowerCase(), value);
}

/** Today in UTC, the browser's time zone (playwright.config.ts), as a date input's value. */
function localDay(plusDays = 0): string {
  return new Date(Date.now() + plusDays * 24 * 60 * 60_000).toISOString().slice(0, 10);
}

const details = (page: Page) => page.getByRole("region", { name: "Message details" });
const timeline = (page: Page) => page.getByRole("list", { name: "Timeline, oldest first" }).getByRole("listitem");

test("search finds a message by id, by phone and by e-mail", async ({ page, seed, signIn }) => {
  const m = seed.messages;
  await signIn(m.admin);
  await openMessages(page);
  const rows = messageRows(page);
  // The seeded examples are test messages; the live one is found in live mode.
  await setMode(page, "test");

  await searchMessages(page, m.whatsappTest);
  await expect(rows).toHaveCount(1);
  await expect(messageRow(rows, m.whatsappTest)).toBeVisible();
  await expect(rows.first()).toContainText("+15550104001");
  await expect(rows.first()).toContainText("WhatsApp");

  // A phone as people write it.
  await searchMessages(page, "+1 (555) 010-4001");
  await expect(rows).toHaveCount(1);
  await expect(messageRow(rows, m.whatsappTest)).toBeVisible();

  // An e-mail address, in any case.
  await searchMessages(page, "INSPECT.EMAIL@example.test");
  await expect(rows).toHaveCount(1);
  await expect(messageRow(rows, m.emailTest)).toBeVisible();
  await expect(rows.first()).toContainText("E-mail");

  // Typing alone searches too, once the typing pauses; the live message is listed in live mode only.
  await page.getByRole("searchbox", { name: "Search messages", exact: true }).fill(m.liveQueued);
  await listSettled(page, "q", m.liveQueued);
  await expect(page.getByText("No messages match this search.")).toBeVisible();
  await setMode(page, "live");
  await expect(rows).toHaveCount(1);
  await expect(messageRow(rows, m.liveQueued)).toBeVisible();

  await searchMessages(page, "msg_nothing_like_this");
  await expect(page.getByText("No messages match this search.")).toBeVisible();
});

test("filters by status, channel and dates, kept in the URL; the mode is the top bar's", async ({ page, seed, signIn }) => {
  const m = seed.messages;
  await signIn(m.admin);
  await openMessages(page);
  const rows = messageRows(page);
  await setMode(page, "test");

  // The seeded failed message is the workspace's only one (other tests send messages that do not fail).
  await filter(page, "Status", "failed");
  await expect(rows).toHaveCount(1);
  await expect(messageRow(rows, m.failedTest)).toBeVisible();
  await expect(rows.first()).toContainText("failed");

  await filter(page, "Status", "queued");
  await setMode(page, "live");
  await expect(rows).toHaveCount(1);
  await expect(messageRow(rows, m.liveQueued)).toBeVisible();

  // Opening a message (the whole row opens it) and coming back keeps the filters and the mode.
  await messageRow(rows, m.liveQueued).click();
  await expect(page.getByRole("heading", { level: 1, name: "WhatsApp message to +15550104002" })).toBeVisible();
  await page.goBack();
  await expect(page.getByRole("heading", { level: 1, name: "Messages" })).toBeVisible();
  await expect(page.getByLabel("Status", { exact: true })).toHaveValue("queued");
  await expect(page.getByRole("switch", { name: "Test data" })).toHaveAttribute("aria-checked", "false");
  await expect(rows).toHaveCount(1);
  await expect(messageRow(rows, m.liveQueued)).toBeVisible();

  // Test mode only, e-mails only: the seeded test e-mail is the only one.
  await filter(page, "Status", "");
  await setMode(page, "test");
  await filter(page, "Channel", "email");
  await expect(rows).toHaveCount(1);
  await expect(messageRow(rows, m.emailTest)).toBeVisible();
  await expect(rows.first()).toContainText("E-mail");

  // Every channel of the registry is a choice, SMS's included (issue 49): a test SMS sent now
  // is found by it, and only SMS are.
  const sent = await page.request.post("/api/v1/messages", {
    headers: { authorization: `Bearer ${m.testKey}` },
    data: { channel: "sms", to: { phone: "+15550104091" }, sms: { body: "Filtered by channel" } },
  });
  expect(sent.status(), await sent.text()).toBe(202);
  const { id: smsId } = (await sent.json()) as { id: string };
  await expect(page.getByLabel("Channel", { exact: true }).locator("option")).toHaveText(["Any channel", "WhatsApp", "E-mail", "SMS"]);
  await filter(page, "Channel", "sms");
  await expect(page).toHaveURL(/[?&]channel=sms(&|$)/);
  await expect(messageRow(rows, smsId)).toBeVisible();
  await expect(rows.filter({ hasNotText: "SMS" })).toHaveCount(0);
  await filter(page, "Channel", "email");
  await expect(rows).toHaveCount(1);

  // Dates: today holds the seeded messages, tomorrow none.
  await page.getByLabel("From").fill(localDay());
  await page.getByLabel("To", { exact: true }).fill(localDay());
  await listSettled(page, "to", localDay());
  await expect(rows).toHaveCount(1);
  await expect(messageRow(rows, m.emailTest)).toBeVisible();
  await page.getByLabel("To", { exact: true }).fill(localDay(1));
  await page.getByLabel("From").fill(localDay(1));
  await listSettled(page, "from", localDay(1));
  await expect(page.getByText("No messages match this search.")).toBeVisible();

  await page.getByRole("button", { name: "Clear filters" }).click();
  await expect(page).not.toHaveURL(/\?/);
  await expect(messageRow(rows, m.whatsappTest)).toBeVisible();
  await expect(messageRow(rows, m.failedTest)).toBeVisible();
});

test("pages of 25, newest first, keep the search", async ({ page, seed, signIn }) => {
  await signIn(seed.messages.support);
  await openMessages(page);
  const rows = messageRows(page);
  await setMode(page, "test");
  const ids = async () => rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-message-id")));

  // Seeded one after the other to +1 555 010 7000 (any spelling of the number finds them).
  await searchMessages(page, "+1 (555) 010-7000");
  await expect(rows).toHaveCount(25);
  const first = await ids();
  const pager = page.getByRole("navigation", { name: "Pages of messages" });
  await expect(pager.getByRole("button", { name: "Previous page" })).toBeDisabled();

  await pager.getByRole("button", { name: "Next page" }).click();
  await expect(pager.getByText("Page 2", { exact: true })).toBeVisible();
  await expect(rows).toHaveCount(5);
  const second = await ids();
  expect(second.filter((id) => first.includes(id))).toEqual([]);
  await expect(pager.getByRole("button", { name: "Next page" })).toBeDisabled();

  await pager.getByRole("button", { name: "Previous page" }).click();
  await expect(pager.getByText("Page 1", { exact: true })).toBeVisible();
  await expect(rows).toHaveCount(25);
  expect(await ids()).toEqual(first);
});

test("a test message sent through the API: its content, then its timeline until read", async ({ page, seed, signIn }) => {
  const m = seed.messages;
  await signIn(m.admin);
  const response = await page.request.post("/api/v1/messages", {
    headers: { authorization: `Bearer ${m.testKey}` },
    data: {
      channel: "whatsapp",
      to: { phone: "+15550104009" },
      whatsapp: { body: "Timeline check for {{first}}" },
      variables: { first: "Tess" },
    },
  });
  expect(response.status()).toBe(202);
  const { id } = (await response.json()) as { id: string };

  await page.goto(`/w/${m.id}/messages/${id}`);
  await expect(page.getByRole("heading", { level: 1, name: "WhatsApp message to +15550104009" })).toBeVisible();
  await expect(page.getByText(id, { exact: true })).toBeVisible();
  await expect(page.getByRole("region", { name: "WhatsApp content" })).toContainText("Timeline check for Tess");

  // The page follows the message: sent at once, delivered about 1 s later, read about 2 s later (D35).
  await expect(details(page).getByRole("definition").first()).toHaveText("read", { timeout: 15_000 });
  await expect(page.getByText("This page follows the message")).toHaveCount(0);
  const entries = timeline(page);
  await expect(entries).toHaveCount(4);
  const statuses = ["queued", "sent", "delivered", "read"];
  for (const [index, status] of statuses.entries()) {
    await expect(entries.nth(index)).toContainText("Status change");
    await expect(entries.nth(index).locator(".badge")).toHaveText(status);
  }
  await expect(entries.nth(1)).toContainText('"simulated": true');
  for (const label of ["Sent", "Delivered", "Read"]) {
    await expect(details(page).getByText(label, { exact: true }).locator("xpath=following-sibling::dd[1]")).not.toHaveText("Not yet");
  }
  await expect(details(page)).toContainText("simulated (test mode sends through no channel)");
});

test("an e-mail's page: subject, the HTML in a sandbox, and its contact", async ({ page, seed, signIn }) => {
  const m = seed.messages;
  await signIn(m.admin);
  await page.goto(`/w/${m.id}/messages/${m.emailTest}`);
  await expect(page.getByRole("heading", { level: 1, name: "E-mail message to inspect.email@example.test" })).toBeVisible();
  const content = page.getByRole("region", { name: "E-mail content" });
  await expect(content).toContainText("Your receipt");
  await expect(content).toContainText("Order 1042 is paid");
  await expect(content).toContainText("help@example.test");

  // The author's HTML in an iframe with no permission at all: shown, its script never run.
  const iframe = content.locator("iframe[title='E-mail body']");
  await expect(iframe).toHaveAttribute("sandbox", "");
  expect(await iframe.getAttribute("srcdoc")).toContain('<h1 id="receipt">Receipt 1042</h1>');
  const body = page.frameLocator("iframe[title='E-mail body']");
  await expect(body.getByRole("heading", { name: "Receipt 1042" })).toBeVisible();
  await expect(body.getByText("Thanks for your order, Ellen.")).toBeVisible();
  await expect(body.locator("#ran")).toHaveCount(0);
  // Its policy, read by the frame's own parser: no remote images until the reader asks.
  await expect(body.locator('meta[http-equiv="Content-Security-Policy"]')).toHaveAttribute(
    "content",
    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:",
  );

  await expect(details(page).getByRole("definition").first()).toHaveText("read", { timeout: 15_000 });
  await expect(timeline(page).filter({ hasText: "Status change" })).toHaveCount(4);

  // The contact link opens the contact the message went to.
  await details(page).getByRole("link", { name: "Ellen Inspect" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Ellen Inspect" })).toBeVisible();
});

test("support staff inspect a live message that keeps retrying, one whose provider never answered, and a failed one", async ({
  page,
  seed,
  signIn,
}) => {
  const m = seed.messages;
  await signIn(m.support);
  await openMessages(page);
  await setMode(page, "live");
  await searchMessages(page, m.liveQueued);
  await messageRow(messageRows(page), m.liveQueued).getByRole("link").click();

  await expect(page.getByRole("heading", { level: 1, name: "WhatsApp message to +15550104002" })).toBeVisible();
  await expect(details(page).getByRole("definition").first()).toHaveText("queued");
  await expect(details(page)).toContainText("Unreachable WhatsApp");
  await expect(page.getByText("This page follows the message")).toBeVisible();
  await expect(page.getByRole("region", { name: "WhatsApp content" })).toContainText("Still trying");
  // Each provider call that could not connect is a retry in the timeline, with its detail.
  const retries = timeline(page).filter({ hasText: "Retry scheduled" });
  await expect(retries.first()).toBeVisible({ timeout: 15_000 });
  await expect(retries.first()).toContainText('"retry_in_ms"');
  await expect(retries.first()).toContainText('"error"');
  await expect(retries.first()).toContainText('"channel_id"');
  await expect(timeline(page).first()).toContainText("Status change");

  // D35's failing number: failed, with the error.
  await page.goto(`/w/${m.id}/messages/${m.failedTest}`);
  await expect(details(page).getByRole("definition").first()).toHaveText("failed", { timeout: 15_000 });
  await expect(details(page)).toContainText("simulated failure");
  await expect(timeline(page).last()).toContainText("failed");

  // A live message the Cloud API read and never answered (D47): not sent again, it waits for
  // WhatsApp's report, and says so.
  await page.goto(`/w/${m.silentId}/messages/${m.liveUnanswered}`);
  const unknown = timeline(page).filter({ hasText: "No answer" });
  await expect(unknown).toBeVisible({ timeout: 60_000 });
  await expect(unknown).toContainText("WhatsApp got the message but did not answer (The Cloud API did not answer within 15 s");
  await expect(unknown).toContainText("it is not sent again. The service waits 6 hours for WhatsApp's report");
  await expect(details(page).getByRole("definition").first()).toHaveText("queued");
  await expect(details(page)).toContainText("provider_timeout");
  await expect(timeline(page).filter({ hasText: "Retry scheduled" })).toHaveCount(0);
  await page.screenshot({ path: "test-results/message-outcome-unknown.png", fullPage: true });

  // Another workspace's (or no) message is a 404 page.
  const missing = await page.goto(`/w/${m.id}/messages/${seed.messages.failedTest}x`);
  expect(missing?.status()).toBe(404);
});

test("an admin cancels a scheduled message from its page; support staff see no cancel", async ({ page, seed, signIn }) => {
  const m = seed.messages;
  const sendAt = new Date(Date.now() + 3_600_000).toISOString();
  const response = await page.request.post("/api/v1/messages", {
    headers: { authorization: `Bearer ${m.testKey}` },
    data: { channel: "whatsapp", to: { phone: "+15550104010" }, whatsapp: { body: "Tomorrow" }, send_at: sendAt },
  });
  expect(response.status()).toBe(202);
  const { id } = (await response.json()) as { id: string };

  await signIn(m.support);
  await page.goto(`/w/${m.id}/messages/${id}`);
  await expect(details(page).getByText("Scheduled for", { exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "Cancel message" })).toHaveCount(0);

  await signIn(m.admin);
  await page.goto(`/w/${m.id}/messages/${id}`);
  await page.getByRole("button", { name: "Cancel message" }).click();
  const dialog = page.getByRole("alertdialog", { name: "Cancel this message?" });
  await dialog.getByRole("button", { name: "Cancel message" }).click();
  await expect(details(page).getByRole("definition").first()).toHaveText("canceled");
  await expect(details(page).getByText("Canceled", { exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "Cancel message" })).toHaveCount(0);
  await expect(timeline(page).last().locator(".badge")).toHaveText("canceled");
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("one line a message under a header for its day, the filters behind a Filters button", async ({ page, seed, signIn }) => {
    const m = seed.messages;
    await signIn(m.support);
    await page.goto(`/w/${m.id}/messages`);
    await expect(messageRows(page).first()).toBeVisible();
    await setMode(page, "test");
    // 25 of the 30 seeded to one number: a full page.
    await searchMessages(page, "+1 (555) 010-7000");
    const rows = messageRows(page);
    await expect(rows).toHaveCount(25);

    // Each row one line (recipient, status, time), none wider than the screen.
    const boxes = await rows.evaluateAll((trs) =>
      trs.map((tr) => tr.getBoundingClientRect()).map((r) => ({ h: r.height, right: r.right })),
    );
    const line = await rows.first().evaluate((tr) => parseFloat(getComputedStyle(tr).lineHeight));
    for (const box of boxes) {
      expect(box.h).toBeLessThan(2 * line + 20);
      expect(box.right).toBeLessThanOrEqual(390);
    }
    await expect(page.getByRole("table", { name: "Messages, newest first" }).locator("tr.day-row")).toHaveCount(1);
    // The whole page: 7,027 px for these 25 messages before the list was rebuilt (a block of
    // six labelled lines a message); now the top of the page and 25 lines.
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    console.log(`messages list at 390 px, 25 rows: page ${height} px, rows ${boxes[0]!.h} px`);
    expect(height).toBeLessThan(2_400);

    // The filters wait behind their button; the search stays in view.
    const status = page.getByLabel("Status", { exact: true });
    await expect(status).toBeHidden();
    await expect(page.getByRole("searchbox", { name: "Search messages", exact: true })).toBeVisible();
    const button = page.getByRole("button", { name: /^Filters/ });
    await expect(button).toHaveAttribute("aria-expanded", "false");
    await button.click();
    await expect(button).toHaveAttribute("aria-expanded", "true");
    await expect(status).toBeVisible();
    await expect(page.getByLabel("Channel", { exact: true })).toBeVisible();
    await status.selectOption("read");
    await listSettled(page, "status", "read");
    await expect(button).toHaveText("Filters (1)");
    await button.click();
    await expect(status).toBeHidden();

    // The whole row opens its message.
    const first = await rows.first().getAttribute("data-message-id");
    // A click anywhere on the row (its middle: the content and source are not shown) opens it.
    await rows.first().click();
    await expect(page).toHaveURL(new RegExp(`/messages/${first}$`));
    await expect(page.getByRole("heading", { level: 1, name: "WhatsApp message to +15550107000" })).toBeVisible();
  });
});
