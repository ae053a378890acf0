import type { Page } from "@playwright/test";
import { startFakeTwilio, type FakeTwilio } from "../support/fake-twilio.ts";
import { addStep, runRow, stepForm } from "./fixtures/flow-canvas.ts";
import { checkPageAtWidths } from "./fixtures/page-checks.ts";
import { expect, test } from "./fixtures/test.ts";

// SMS in the dashboard (issue 49, D94-D97): an admin connects a Twilio account on the channels
// page (the "Channels" workspace of fixtures/seed.ts, Twilio being the local fake of
// e2e/support/fake-twilio.ts), writes a journey's SMS step watching its segment count as it is
// typed, and follows the message a test enrollment sent to its page, with its segments (the
// "Flows" workspace: test keys simulate the send, D35). Each page is checked at 1440 and 390 px.

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

async function openFromNav(page: Page, name: string): Promise<void> {
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name }).click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
}

test.describe("channels", () => {
  let twilio: FakeTwilio;
  test.beforeEach(async () => {
    twilio = await startFakeTwilio();
  });
  test.afterEach(async () => {
    await twilio.close();
  });

  test("an admin connects a Twilio account, sees the callback URL to paste into Twilio and sends a test SMS", async ({
    page,
    seed,
    signIn,
    baseURL,
  }) => {
    // Two page checks at two widths each (axe runs four times): about 1.5 min at a load of 20.
    test.setTimeout(180_000);
    const name = `Codes ${unique()}`;
    await signIn(seed.channels.admin);
    await openFromNav(page, "Channels");
    await expect(page.getByRole("list", { name: "Channels" })).toBeVisible();

    await page.getByRole("button", { name: "Connect SMS" }).click();
    const dialog = page.getByRole("dialog", { name: "Connect a Twilio account for SMS" });
    await dialog.getByLabel("Name").fill(name);
    await dialog.getByLabel("Account SID").fill("AC-not-a-sid");
    await dialog.getByLabel("Auth token").fill(twilio.authToken);
    await dialog.getByLabel("From number").fill("+15017122661");
    await dialog.getByLabel("API base URL").fill(twilio.url);
    await checkPageAtWidths(page, "sms-connect-dialog");
    // The server's refusal is shown at its field, which takes the focus.
    await dialog.getByRole("button", { name: "Connect SMS" }).click();
    const sid = dialog.getByLabel("Account SID");
    await expect(sid).toHaveAttribute("aria-invalid", "true");
    await expect(sid).toHaveAccessibleDescription(/must be the Twilio account SID/);
    await expect(sid).toBeFocused();

    await sid.fill(twilio.accountSid);
    await dialog.getByRole("button", { name: "Connect SMS" }).click();
    await expect(dialog).toHaveCount(0);
    await expect(page.getByRole("status").filter({ hasText: `SMS channel “${name}” connected.` })).toBeVisible();

    const card = page.getByRole("article", { name });
    await expect(card).toContainText(twilio.accountSid);
    await expect(card).toContainText("+15017122661");
    await expect(card).toContainText(twilio.url);
    await expect(card.getByRole("list", { name: `Secrets of ${name}` })).toHaveText("Auth token: set");
    await expect(page.getByText(twilio.authToken)).toHaveCount(0);
    // D95: one callback URL per channel, for its status reports and its inbound messages.
    await expect(card).toContainText(new RegExp(`${baseURL}/api/providers/sms/twilio/ch_\\w+`));
    await expect(card).toContainText("incoming-message webhook");
    await expect(card.getByRole("button", { name: `Copy the callback URL of ${name}` })).toBeVisible();
    await card.scrollIntoViewIfNeeded();
    await checkPageAtWidths(page, "sms-channels");

    // A test SMS through the channel: Twilio's Messages API gets it, form-encoded.
    await card.getByRole("button", { name: `Send a test message with ${name}` }).click();
    const send = page.getByRole("dialog", { name: `Send a test message with “${name}”` });
    await expect(send).toContainText("One real SMS through this channel's provider.");
    await send.getByLabel("Phone number").fill("+1 555 010 6001");
    await send.getByRole("textbox", { name: "Text" }).fill("Hello from the SMS test");
    await send.getByRole("button", { name: "Send test message" }).click();
    await expect(send.getByRole("region", { name: "Provider's answer" })).toContainText("Accepted by the provider");
    const [request] = await twilio.waitForRequests(1);
    expect(request?.accountSid).toBe(twilio.accountSid);
    expect(request?.form).toMatchObject({ To: "+15550106001", From: "+15017122661", Body: "Hello from the SMS test" });
    await send.getByRole("button", { name: "Close" }).click();

    // Disconnected again, so the workspace's other tests see the channels they made.
    await card.getByRole("button", { name: `Disconnect ${name}` }).click();
    await page
      .getByRole("alertdialog", { name: `Disconnect “${name}”?` })
      .getByRole("button", { name: "Disconnect channel" })
      .click();
    await expect(page.getByRole("article", { name })).toHaveCount(0);
  });
});

test("an admin writes a journey's SMS with its live segment count, and sees the sent message with its segments", async ({
  page,
  seed,
  signIn,
}) => {
  test.setTimeout(120_000);
  const { flows } = seed;
  const name = `SMS code ${unique()}`;
  await signIn(flows.admin);
  await openFromNav(page, "Flows");
  await page.getByRole("link", { name: "New flow" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "New flow" })).toBeVisible();
  await page.getByLabel("Name", { exact: true }).fill(name);

  await addStep(page, "Send a message", "at the start");
  const step = stepForm(page, "Step 1");
  await step.getByLabel("Channel", { exact: true }).selectOption("sms");
  const body = step.getByLabel("Message", { exact: true });
  const count = step.getByTestId("sms-segments");

  // D97, as the server counts: placeholders counted as typed, and said so (braces are GSM-7
  // extension characters: two units each).
  await body.fill("Your code is {{code}}");
  await expect(count).toHaveText("1 segment · GSM-7 · 25/160 characters");
  await expect(step).toContainText("Placeholders are counted as typed");
  // GSM-7's extension characters count two; the 161st unit makes a second segment of 153.
  await body.fill(`${"a".repeat(150)}[ok]`);
  await expect(count).toHaveText("1 segment · GSM-7 · 156/160 characters");
  await body.press("End");
  await body.pressSequentially("€€");
  await expect(count).toHaveText("1 segment · GSM-7 · 160/160 characters");
  await body.pressSequentially("!");
  await expect(count).toHaveText("2 segments · GSM-7 · 161/306 characters");
  // A character outside GSM 03.38 makes it UCS-2, 70 to a segment; the emoji counts two.
  const text = "Olá! Your code is 4821. It expires in 10 minutes; never share it with anyone. 🎉";
  await body.fill(text);
  await expect(count).toHaveText("2 segments · UCS-2 · 80/134 characters");
  await expect(step).toContainText("“á”, “🎉” are outside the GSM-7 alphabet, so a segment holds 70 characters instead of 160.");
  await expect(body).toHaveAccessibleDescription(/2 segments · UCS-2/);
  await checkPageAtWidths(page, "sms-journey-editor");

  await page.getByRole("button", { name: "Create flow" }).click();
  await expect(page).toHaveURL(/\/flows\/flow_\w+/);
  const flowId = /\/flows\/(flow_\w+)/.exec(page.url())![1]!;
  await page.getByRole("group", { name: "Flow status" }).getByRole("button", { name: "Activate" }).click();
  await expect(page.getByRole("status").filter({ hasText: "The flow is active" })).toBeVisible();

  // A test enrollment: the send is simulated (D35), as every channel's in test mode.
  const enrolled = await page.request.post(`/api/v1/flows/${flowId}/enroll`, {
    headers: { Authorization: `Bearer ${flows.testKey}` },
    data: { to: { phone: "+5511955550099" } },
  });
  expect(enrolled.status(), await enrolled.text()).toBe(201);
  const runId = ((await enrolled.json()) as { id: string }).id;
  const row = await runRow(page, runId);
  await expect(row).toContainText("completed");
  await row.getByRole("button", { name: `History of run ${runId}` }).click();
  const history = page.getByRole("dialog", { name: `Run ${runId}` }).getByRole("list", { name: "Run history, oldest first" });
  const sent = history.getByRole("listitem").filter({ hasText: /Sent an SMS message msg_/ });
  await sent.getByRole("link", { name: /^msg_/ }).click();

  await expect(page.getByRole("heading", { level: 1, name: "SMS message to +5511955550099" })).toBeVisible();
  const content = page.getByRole("region", { name: "SMS content" });
  await expect(content).toContainText(text);
  await expect(content).toContainText("2 segments, UCS-2");
  await expect(content).toContainText("70 characters fit in one; a longer text goes in parts of 67");
  await checkPageAtWidths(page, "sms-message");
});
