import { readFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import { openContact } from "./fixtures/contacts.ts";
import { selectStep, stepNode } from "./fixtures/flow-canvas.ts";
import { messageRows, searchMessages, setMode } from "./fixtures/messages.ts";
import { checkPage, checkPageAtWidths } from "./fixtures/page-checks.ts";
import { uiTarget } from "./fixtures/target.ts";
import { expect, test } from "./fixtures/test.ts";

// A message followed everywhere a person looks for it (issue 15): the messages list (content,
// contact, source, reason, CSV export), the message's page (timeline in words, the flow and run
// that sent it, its webhook deliveries), the contact's page (its messages and runs, history in
// words), and the flow's page (a test run started there, runs by step, contact names, the run's
// dialog). Seeded by fixtures/seed.ts: the "Flows" workspace's "Seeded welcome" flow (send, wait
// 5 minutes, tag), its contact "Fiona Flow" and an endpoint for `mensagem.enviada` on a closed
// port; the "Messages" workspace's messages, two of them sent by its key.

test.use({ permissions: ["clipboard-read", "clipboard-write"] });

/** A step's row in the statistics of the flow's current version (listed first), in the mode the top bar's switch shows. */
const stepRow = (page: Page, label: RegExp) =>
  page
    .getByRole("table", { name: /^Version \d+ by step$/ })
    .first()
    .getByRole("row")
    .filter({ has: page.getByRole("rowheader", { name: label }) });

/** Starts a test run of the welcome flow for its contact from the flow's page; returns the run's id. */
async function startTestRun(page: Page): Promise<string> {
  const { flows } = uiTarget().seed;
  await page.goto(`/w/${flows.id}/flows/${flows.welcomeFlow.id}`);
  await expect(page.getByRole("heading", { level: 1, name: flows.welcomeFlow.name })).toBeVisible();
  const section = page.getByRole("region", { name: "Enroll a contact" });
  await section.getByLabel("Find a contact").fill(flows.welcomeFlow.contactName);
  await section.getByRole("button", { name: "Search" }).click();
  await section.getByRole("radio", { name: new RegExp(flows.welcomeFlow.contactName) }).check();
  await expect(section.getByRole("radio", { name: /Test run/ })).toBeChecked();
  await section.getByRole("button", { name: "Start test run" }).click();
  const started = section.getByRole("status").filter({ hasText: /Test run run_\w+ started/ });
  await expect(started).toBeVisible();
  return /run_\w+/.exec((await started.textContent()) ?? "")![0];
}

test("an admin test-runs a flow from its page and follows its message to the message, the endpoint's log and the contact", async ({
  page,
  seed,
  signIn,
}) => {
  test.setTimeout(120_000);
  const { flows } = seed;
  await signIn(flows.admin);
  const runId = await startTestRun(page);

  // Durations in words in the editor.
  await expect(await selectStep(page, "Step 2")).toContainText("Waits 5 minutes.");
  // The run, with its contact's name; the send step passed, the wait holds it.
  const run = page.getByRole("table", { name: "Runs" }).getByRole("row").filter({ hasText: runId });
  await expect(run).toContainText(flows.welcomeFlow.contactName);
  await expect(run).toContainText("test");
  // Its numbers, with the top bar's switch on test data: reached, waiting, stopped, failed.
  await setMode(page, "test");
  await expect(stepRow(page, /^Step 1 · Send a message/).getByRole("cell")).toHaveText(["1", "0", "0", "0", /.*/], { timeout: 30_000 });
  await expect(stepRow(page, /^Step 2 · Wait/).getByRole("cell")).toHaveText(["1", "1", "0", "0", /.*/]);
  await expect(stepRow(page, /^Step 3 ·/).getByRole("cell")).toHaveText(["0", "0", "0", "0", /.*/]);
  // The canvas's node says the same.
  await expect(stepNode(page, "Step 2")).toContainText("1 reached · 1 waiting");

  // Its history in words, in a dialog as wide as its content, its title in view whatever has the focus.
  await run.getByRole("button", { name: `History of run ${runId}` }).click();
  const dialog = page.getByRole("dialog", { name: `Run ${runId}` });
  const history = dialog.getByRole("list", { name: "Run history, oldest first" });
  await expect(history).toContainText("Entered the flow on version 1.");
  await expect(history).toContainText(/Began waiting 5 minutes, until .*\(in \d+ minutes?\)/);
  await expect(dialog).toContainText(flows.welcomeFlow.contactName);
  const fits = await dialog.evaluate((d) => {
    const wrap = d.querySelector(".run-dialog-body")!;
    return { table: wrap.scrollWidth, wrap: wrap.clientWidth };
  });
  expect(fits.table).toBeLessThanOrEqual(fits.wrap);
  const title = dialog.getByRole("heading", { name: `Run ${runId}` });
  await expect(dialog.getByRole("button", { name: "Close" })).toBeFocused();
  await expect(title).toBeInViewport();
  const messageLink = history.getByRole("link", { name: /^msg_/ });
  await messageLink.focus();
  await expect(title).toBeInViewport();
  await checkPage(page, "admin-journeys-run-dialog-desktop");
  const messageId = (await messageLink.textContent())!.trim();
  await messageLink.click();

  // The message's page: who sent it (the flow and its run, linked), its timeline in words, ids to copy.
  await expect(page.getByRole("heading", { level: 1, name: "WhatsApp message to +15550109001" })).toBeVisible();
  const details = page.getByRole("region", { name: "Message details" });
  await expect(details.getByRole("link", { name: flows.welcomeFlow.name })).toHaveAttribute(
    "href",
    `/w/${flows.id}/flows/${flows.welcomeFlow.id}`,
  );
  await expect(details.getByRole("link", { name: runId })).toHaveAttribute(
    "href",
    `/w/${flows.id}/flows/${flows.welcomeFlow.id}?run=${runId}`,
  );
  await page.getByRole("button", { name: "Copy the message ID" }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(messageId);
  await expect(page.getByRole("status").filter({ hasText: "Copied." })).toBeVisible();
  const timeline = page.getByRole("list", { name: "Timeline, oldest first" }).getByRole("listitem");
  await expect(timeline.first()).toContainText("A flow's send step wrote the message; it waits for sending.");
  await expect(timeline.nth(1)).toContainText(
    "Simulated: the test message counts as sent, as if WhatsApp had taken it; test messages reach no provider.",
  );
  await expect(timeline.nth(1).getByText("Raw detail")).toBeVisible();
  await expect(timeline.nth(1).locator("pre")).toBeHidden();
  await timeline.nth(1).getByText("Raw detail").click();
  await expect(timeline.nth(1).locator("pre")).toContainText('"simulated": true');

  // Its webhook delivery (the endpoint is on a closed port), linked to its place in the endpoint's log.
  const deliveries = page.getByRole("table", { name: "Webhook deliveries of this message's events" });
  await expect(async () => {
    await page.reload();
    await expect(deliveries.getByRole("row").filter({ hasText: "mensagem.enviada" })).toHaveCount(1, { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await deliveries.getByRole("link", { name: /in the log of http:\/\/127\.0\.0\.1:9\/journeys-receiver/ }).click();
  await expect(page.getByRole("dialog", { name: /^Delivery whd_/ })).toBeVisible();
  await expect(page.getByRole("dialog", { name: /^Delivery whd_/ })).toContainText("mensagem.enviada");

  // Back on the message, on to its contact: its messages and runs, its history in words.
  await page.goto(`/w/${flows.id}/messages/${messageId}`);
  await details.getByRole("link", { name: flows.welcomeFlow.contactName }).click();
  await expect(page.getByRole("heading", { level: 1, name: flows.welcomeFlow.contactName })).toBeVisible();
  const messages = page.getByRole("table", { name: "Messages of this contact, newest first" });
  await expect(messages.getByRole("row").filter({ hasText: messageId })).toContainText("Welcome aboard, Fiona Flow!");
  const runs = page.getByRole("table", { name: "Flow runs of this contact, newest first" });
  const runRow = runs.getByRole("row").filter({ hasText: runId });
  await expect(runRow).toContainText("active");
  await expect(runRow.getByRole("link", { name: flows.welcomeFlow.name })).toHaveAttribute(
    "href",
    `/w/${flows.id}/flows/${flows.welcomeFlow.id}?run=${runId}`,
  );
  const events = page.getByRole("table", { name: "Events of this contact, newest first" });
  await expect(events.getByRole("row").filter({ hasText: "mensagem.enviada" })).toContainText(`WhatsApp message ${messageId} sent.`);
  await expect(events.getByRole("row").filter({ hasText: "contato.criado" })).toContainText(
    "Created with name “Fiona Flow”, phone +15550109001.",
  );

  // The run's link opens the flow with the run's history.
  await runRow.getByRole("link", { name: flows.welcomeFlow.name }).click();
  await expect(page.getByRole("dialog", { name: `Run ${runId}` })).toBeVisible();
});

test("the messages list names each message's content, contact, source and failure; its CSV export follows the filters", async ({
  page,
  seed,
  signIn,
}) => {
  const m = seed.messages;
  await signIn(m.support);
  await page.goto(`/w/${m.id}/messages`);
  await expect(messageRows(page).first()).toBeVisible();
  await setMode(page, "test");

  await searchMessages(page, m.whatsappTest);
  const row = messageRows(page).first();
  await expect(row.getByRole("rowheader")).toHaveText("Wanda Inspect+15550104001");
  await expect(row.getByRole("cell").nth(0)).toHaveText("Hello Wanda, your order shipped.");
  await expect(row.getByRole("cell").nth(2)).toHaveText("API key Messages test key");
  // The time of day, under the day's header row.
  await expect(row.getByRole("cell").nth(4)).toHaveText(/^\d{1,2}:\d{2}/);
  await expect(page.getByRole("table", { name: "Messages, newest first" }).locator("tr.day-row")).toHaveCount(1);

  // A message sent through the API names the key that sent it.
  const sent = await page.request.post("/api/v1/messages", {
    headers: { authorization: `Bearer ${m.testKey}` },
    data: { channel: "whatsapp", to: { phone: "+15550104011" }, whatsapp: { body: "Sent by the key" } },
  });
  expect(sent.status()).toBe(202);
  await searchMessages(page, ((await sent.json()) as { id: string }).id);
  await expect(messageRows(page).first().getByRole("cell").nth(0)).toHaveText("Sent by the key");
  await expect(messageRows(page).first().getByRole("cell").nth(2)).toHaveText("API key Messages test key");

  await searchMessages(page, m.emailTest);
  await expect(messageRows(page).first().getByRole("cell").nth(0)).toHaveText("Subject: Your receipt");

  await searchMessages(page, m.failedTest);
  await expect(messageRows(page).first().getByRole("cell").nth(1)).toContainText("Test mode's failing recipient: the failure is simulated");

  // The export: the list as filtered, its cap said beside the button. "Clear filters" empties the
  // search box too. (Emptying the box first would drop the search's only filter once typing
  // pauses, and the button with it: a click racing that pause found no button on a busy machine.)
  await page.getByRole("button", { name: "Clear filters" }).click();
  await expect(page.getByRole("searchbox", { name: "Search messages", exact: true })).toHaveValue("");
  await expect(page).not.toHaveURL(/\?/);
  await page.getByLabel("Status", { exact: true }).selectOption("failed");
  await expect.poll(() => new URL(page.url()).searchParams.get("status")).toBe("failed");
  await expect(page.getByText("the first 10,000 at most")).toBeVisible();
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Export CSV" }).click()]);
  expect(download.suggestedFilename()).toMatch(/^messages-.+\.csv$/);
  const lines = readFileSync((await download.path())!, "utf8")
    .trimEnd()
    .split("\r\n");
  expect(lines[0]).toBe(
    "id,created_at,status,channel,mode,direction,to,contact_id,contact_name,content_kind,content,source,source_name,flow_run_id,error_code,error_reason,error,provider_message_id,sent_at,delivered_at,read_at",
  );
  expect(lines).toHaveLength(2);
  expect(lines[1]).toContain(`${m.failedTest},`);
  expect(lines[1]).toContain(",failed,whatsapp,test,outbound,+15550100001,");
  expect(lines[1]).toContain(",simulated_failure,");

  // Unfiltered: every message, newest first.
  const all = await page.request.get(`/w/${m.id}/messages/export`);
  expect(all.headers()["content-type"]).toContain("text/csv");
  const allLines = (await all.text()).trimEnd().split("\r\n");
  expect(allLines.length).toBeGreaterThan(34);
  expect(allLines.some((l) => l.startsWith(`${m.whatsappTest},`) && l.includes(",api,Messages test key,"))).toBe(true);
  // Another workspace's export does not exist for this user; a bad filter is refused.
  expect((await page.request.get(`/w/${seed.alpha.id}/messages/export`)).status()).toBe(404);
  expect((await page.request.get(`/w/${m.id}/messages/export?status=lost`)).status()).toBe(400);
});

test("support staff read a flow's runs by step and its runs' contacts, without the enroll form", async ({ page, seed, signIn }) => {
  const { flows } = seed;
  await signIn(flows.support);
  await page.goto(`/w/${flows.id}/flows/${flows.seededFlow.id}`);
  await expect(page.getByRole("heading", { level: 1, name: flows.seededFlow.name })).toBeVisible();
  await expect(page.getByRole("region", { name: "Enroll a contact" })).toHaveCount(0);
  // The seeded run is a test run.
  await setMode(page, "test");
  await expect(page.getByRole("group", { name: "Step 1", exact: true })).toContainText("Waits 1 day.");
  await expect(stepNode(page, "Step 1")).toContainText("1 reached · 1 waiting");
  await expect(stepRow(page, /^Step 1 · Wait/).getByRole("cell")).toHaveText(["1", "1", "0", "0", /.*/]);
  const run = page.getByRole("table", { name: "Runs" }).getByRole("row").filter({ hasText: flows.seededFlow.runId });
  await expect(run).toContainText("+5511955550009");
  // The server refuses a support user's enrollment too.
  const response = await page.request.post("/api/trpc/flows.startRun", {
    headers: { "x-svc-workspace": flows.id, "content-type": "application/json" },
    data: { flow_id: flows.seededFlow.id, contact_id: "ct_none", mode: "test" },
  });
  expect(response.ok()).toBe(false);
  expect(((await response.json()) as { error: { data: { type?: string } } }).error.data.type).toBe("forbidden");
});

test("the messages list, a message, a contact and a flow at 1440 and 390 px: no overflow, no serious axe violation, screenshots", async ({
  page,
  seed,
  signIn,
}) => {
  test.setTimeout(240_000);
  for (const [role, user] of [
    ["admin", seed.flows.admin],
    ["support", seed.flows.support],
  ] as const) {
    await signIn(user);
    const ws = seed.flows.id;
    await page.goto(`/w/${ws}/flows/${seed.flows.welcomeFlow.id}`);
    await expect(page.getByRole("table", { name: /^Version \d+ by step$/ }).first()).toBeVisible();
    await checkPageAtWidths(page, `${role}-journeys-flow`);
    await openContact(page, ws, seed.flows.welcomeFlow.contactName);
    await expect(page.getByRole("region", { name: "Flow runs" })).toBeVisible();
    await checkPageAtWidths(page, `${role}-journeys-contact`);
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/sign-in/);
  }
  for (const [role, user] of [
    ["admin", seed.messages.admin],
    ["support", seed.messages.support],
  ] as const) {
    await signIn(user);
    await page.goto(`/w/${seed.messages.id}/messages`);
    await expect(messageRows(page).first()).toBeVisible();
    await checkPageAtWidths(page, `${role}-journeys-messages`);
    await page.goto(`/w/${seed.messages.id}/messages/${seed.messages.whatsappTest}`);
    await expect(page.getByRole("region", { name: "Webhook deliveries" })).toBeVisible();
    await checkPageAtWidths(page, `${role}-journeys-message`);
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/sign-in/);
  }
});
