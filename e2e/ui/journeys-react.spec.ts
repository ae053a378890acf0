import type { Locator, Page } from "@playwright/test";
import { addStep, stepNode } from "./fixtures/flow-canvas.ts";
import { checkPageAtWidths } from "./fixtures/page-checks.ts";
import { expect, test } from "./fixtures/test.ts";

// Journeys that react (D61-D64, D66, D82) in the dashboard: an abandoned-cart flow built in the
// editor (a trigger with a condition and a key, a send, a wait_for on the payment matching the
// run's key with both paths, a goal), faults shown where they are, then driven through the public
// API with the "Reactive" workspace's test key (fixtures/seed.ts) while its run's history, the
// contact's events and the flow's page say what happened. The server runs the pipeline inline.

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

const group = (scope: Page | Locator, name: string): Locator => scope.getByRole("group", { name, exact: true });

/** Saves the new flow and expects the server's fault in words, linked from the summary above the editor to its place. */
async function refusedAt(page: Page, place: string, words: string): Promise<void> {
  await page.getByRole("button", { name: "Create flow" }).click();
  const summary = page.getByRole("alert").filter({ hasText: "Not saved: fix this first." });
  await expect(summary.getByRole("listitem")).toHaveText(`${place}: ${words}`);
}

/** Records a contact event through the public API with the test key. */
async function recordEvent(page: Page, key: string, body: Record<string, unknown>): Promise<{ id: string; contact_id: string }> {
  const response = await page.request.post("/api/v1/events", { headers: { Authorization: `Bearer ${key}` }, data: body });
  expect(response.status(), await response.text()).toBe(202);
  return (await response.json()) as { id: string; contact_id: string };
}

test("an admin builds an abandoned-cart flow in the editor, an event starts its run, the payment wakes it and reaches the goal", async ({
  page,
  seed,
  signIn,
}) => {
  test.setTimeout(240_000);
  const { reactive } = seed;
  const name = `Abandoned cart ${unique()}`;
  const phone = `+55119${String(Date.now() % 100_000_000).padStart(8, "0")}`;
  await signIn(reactive.admin);
  await page.goto(`/w/${reactive.id}/flows/new`);
  await expect(page.getByRole("heading", { level: 1, name: "New flow" })).toBeVisible();
  await page.getByLabel("Name", { exact: true }).fill(name);

  // The trigger: cart_abandoned (misspelled first), of at least 50, keyed by the cart.
  const trigger = group(page, "Trigger");
  await trigger.getByLabel("Start a run when an event is recorded for a contact").check();
  await trigger.getByLabel("Event name", { exact: true }).fill("Cart Abandoned");
  await trigger.getByRole("button", { name: "Add a condition" }).click();
  const condition = group(trigger, "Conditions");
  await condition.getByLabel("Property", { exact: true }).fill("total");
  await condition.getByLabel("Operator", { exact: true }).selectOption({ label: "is at least" });
  await condition.getByLabel("Type", { exact: true }).selectOption({ label: "Number" });
  await condition.getByLabel("Value", { exact: true }).fill("50");
  await trigger.getByLabel(/^Run key/).fill("{{event.cart_id}}");

  // The goal: the cart's payment, counted without ending the run (the thank-you path still runs).
  const goal = group(page, "Goal");
  await goal.getByLabel("Count a conversion when an event is recorded for the run's contact").check();
  await goal.getByLabel("Goal event", { exact: true }).fill("order_paid");
  await goal.getByRole("button", { name: "Add a property to match" }).click();
  await goal.getByLabel("Property", { exact: true }).fill("order_id");
  await goal.getByLabel("Equals", { exact: true }).fill("{{run.key}}");
  await goal.getByLabel(/^End the run when the goal is reached/).uncheck();

  // Step 1: the reminder; step 2: wait a day for the payment of this cart (its match mistyped first).
  await addStep(page, "Send a message", "at the start");
  await group(page, "Step 1").getByLabel("Message", { exact: true }).fill("Your cart {{run.key}} is waiting");
  await expect(
    group(page, "Step 1").getByRole("group", { name: "Placeholders" }).getByRole("button", { name: "{{run.key}}" }),
  ).toBeVisible();
  await addStep(page, "Wait for an event or a reply", "after Step 1");
  const wait = group(page, "Step 2");
  await wait.getByLabel("Event name", { exact: true }).fill("order_paid");
  await wait.getByRole("button", { name: "Add a property to match" }).click();
  await wait.getByLabel("Property", { exact: true }).fill("order id");
  await wait.getByLabel("Equals", { exact: true }).fill("{{run.key}}");
  await expect(wait.getByLabel("Timeout", { exact: true })).toHaveValue("P1D");
  await expect(wait).toContainText("Gives up after 1 day.");
  // Its two paths, drawn on the canvas like a branch's: a thank-you (left empty first), a last nudge.
  await expect(page.getByRole("img", { name: "event arrived: from Step 2 to Step 2 › event arrived" })).toBeAttached();
  await expect(page.getByRole("img", { name: "timed out: from Step 2 to Step 2 › timed out" })).toBeAttached();
  await addStep(page, "Send a message", "to Step 2 › event arrived");
  await addStep(page, "Send a message", "to Step 2 › timed out");
  await group(page, "Step 2 › timed out › 1").getByLabel("Message", { exact: true }).fill("Still thinking about cart {{run.key}}?");

  // Each fault is shown where it is: the trigger, the wait_for's match, a step inside its path.
  const eventWords = "Name the event in lowercase letters, digits, _ and . (such as order_paid).";
  await refusedAt(page, "Trigger", eventWords);
  await expect(trigger).toHaveClass(/has-fault/);
  await expect(trigger.getByRole("alert")).toHaveText(eventWords);
  await expect(trigger.getByLabel("Event name", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await checkPageAtWidths(page, "react-editor-fault");
  await trigger.getByLabel("Event name", { exact: true }).fill("cart_abandoned");

  await refusedAt(
    page,
    "Step 2 (Wait for an event or a reply)",
    "Name each property to match as a path such as order.id (letters, digits, _ and -, joined by dots).",
  );
  await expect(trigger).not.toHaveClass(/has-fault/);
  await expect(wait).toHaveClass(/has-fault/);
  await expect(group(wait, "Match").getByLabel("Property", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await group(wait, "Match").getByLabel("Property", { exact: true }).fill("order_id");

  await refusedAt(page, "Step 2 › event arrived › 1 (Send a message)", "Write the message or add a media URL.");
  const thanks = group(page, "Step 2 › event arrived › 1");
  await expect(thanks).toHaveClass(/has-fault/);
  await expect(stepNode(page, "Step 2 › event arrived › 1")).toContainText("Needs a fix");
  await expect(stepNode(page, "Step 2")).not.toContainText("Needs a fix");
  await expect(thanks.getByLabel("Message", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await thanks.getByLabel("Message", { exact: true }).fill("Thanks for paying {{wait.order_id}}!");

  await page.getByRole("button", { name: "Create flow" }).click();
  await expect(page).toHaveURL(/\/flows\/flow_\w+/);
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  const flowId = /\/flows\/(flow_\w+)/.exec(page.url())![1]!;
  await page.getByText("Flow document (JSON)").click();
  expect(JSON.parse((await page.getByLabel("Flow document", { exact: true }).textContent()) ?? "")).toMatchObject({
    trigger: { event: "cart_abandoned", where: { property: "total", gte: 50 }, key: "{{event.cart_id}}" },
    goal: { event: "order_paid", match: { order_id: "{{run.key}}" }, exit: false },
    steps: [
      { type: "send" },
      {
        type: "wait_for",
        event: "order_paid",
        match: { order_id: "{{run.key}}" },
        timeout: "P1D",
        on_event: [{ type: "send", whatsapp: { body: "Thanks for paying {{wait.order_id}}!" } }],
        on_timeout: [{ type: "send" }],
      },
    ],
  });

  // The flow's page says its trigger and goal.
  const summary = page.getByRole("region", { name: "Trigger and goal" });
  await expect(summary).toContainText(
    "cart_abandoned is recorded for a contact, where total is at least 50; only while the flow is active.",
  );
  await expect(summary).toContainText("{{event.cart_id}}");
  await expect(summary).toContainText("order_paid is recorded for the run's contact, where order_id is “{{run.key}}”.");
  await expect(summary).toContainText("The run counts a conversion and goes on with its steps.");
  await page.getByRole("group", { name: "Flow status" }).getByRole("button", { name: "Activate" }).click();
  await expect(page.getByRole("status").filter({ hasText: "The flow is active" })).toBeVisible();
  await expect(summary).toContainText("where total is at least 50.");

  // The cart is abandoned: a run starts, keyed by the cart, sends and waits for the payment.
  const abandoned = await recordEvent(page, reactive.testKey, {
    name: "cart_abandoned",
    to: { phone },
    properties: { cart_id: "cart-42", total: 120, items: ["shoes"] },
  });
  const row = page.getByRole("table", { name: "Runs" }).getByRole("row").filter({ hasText: "cart-42" });
  await expect(async () => {
    await page.getByRole("button", { name: /^Refresh/ }).click();
    await expect(row).toHaveCount(1, { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  const runId = (await row.getByRole("rowheader").locator("code").first().textContent())!.trim();
  await row.getByRole("button", { name: `History of run ${runId}` }).click();
  const dialog = page.getByRole("dialog", { name: `Run ${runId}` });
  const history = dialog.getByRole("list", { name: "Run history, oldest first" }).getByRole("listitem");
  await expect(dialog.getByRole("definition").filter({ hasText: "cart-42" })).toBeVisible();
  await expect(history.nth(0)).toContainText(`Entered the flow on version 1, triggered by the event cart_abandoned (${abandoned.id}).`);
  await expect(history.nth(1)).toContainText(/Step 1 · Send a message.*Sent a WhatsApp message msg_\w+\./);
  await expect(history.nth(2)).toContainText(
    /Waiting.*Step 2 · Wait for an event or a reply.*Began waiting for the event order_paid where order_id is “cart-42”, until .* at the latest\./,
  );

  // Another cart's payment wakes nothing; this cart's converts the run, wakes it and takes the event's path.
  await recordEvent(page, reactive.testKey, { name: "order_paid", to: { phone }, properties: { order_id: "cart-7" } });
  const paid = await recordEvent(page, reactive.testKey, {
    name: "order_paid",
    to: { phone },
    properties: { order_id: "cart-42", amount: 120 },
  });
  await expect(history.last()).toContainText("Went through the flow to its end.", { timeout: 20_000 });
  await expect(history.nth(3)).toContainText(`Converted`);
  await expect(history.nth(3)).toContainText(`Reached the goal: the event order_paid (${paid.id}) counts as a conversion.`);
  await expect(history.nth(4)).toContainText(`The event order_paid (${paid.id}) arrived and woke the run.`);
  await expect(history.nth(5)).toContainText("Took the “event arrived” path: what the run waited for arrived.");
  await expect(history.nth(6)).toContainText(/Step 2 › event arrived › 1 · Send a message.*Sent a WhatsApp message msg_\w+\./);
  await expect(history).toHaveCount(8);
  await expect(history.nth(4).getByRole("link", { name: paid.id })).toHaveAttribute(
    "href",
    `/w/${reactive.id}/contacts/${abandoned.contact_id}#contact-events`,
  );
  await expect(dialog.locator("dt", { hasText: "Converted" }).locator("xpath=following-sibling::dd[1]").locator("time")).toBeVisible();
  await checkPageAtWidths(page, "react-run-dialog");
  await history.nth(4).getByText("Properties of order_paid").click();
  await expect(history.nth(4).locator("pre").first()).toContainText('"order_id": "cart-42"');
  const thankYou = (await history.nth(6).getByRole("link", { name: /^msg_/ }).textContent())!.trim();
  await dialog.getByRole("button", { name: "Close" }).click();
  await checkPageAtWidths(page, "react-flow");

  // The contact's page: its events, newest first, with what each did to flows; its run with its key.
  await page.goto(`/w/${reactive.id}/contacts/${abandoned.contact_id}`);
  const events = page.getByRole("table", { name: "Contact events, newest first" });
  await expect(events.getByRole("row")).toHaveCount(4);
  const cart = events.getByRole("row").filter({ hasText: abandoned.id });
  await expect(cart).toContainText("cart_abandoned");
  await expect(cart).toContainText("cart_id: “cart-42”");
  await expect(cart).toContainText('items: ["shoes"]');
  await expect(cart).toContainText("total: 120");
  await expect(cart).toContainText("test");
  await expect(cart.getByRole("link", { name })).toHaveAttribute("href", `/w/${reactive.id}/flows/${flowId}?run=${runId}`);
  // The payment started no run; it woke this one and counted its conversion, and says so.
  const payment = events.getByRole("row").filter({ hasText: paid.id });
  await expect(payment).toContainText(`Woke a waiting run of ${name}`);
  await expect(payment).toContainText(`Counted a conversion in ${name}`);
  const runs = page.getByRole("table", { name: "Flow runs of this contact, newest first" });
  await expect(runs.getByRole("row").filter({ hasText: runId })).toContainText("key cart-42");
  await checkPageAtWidths(page, "react-contact");

  // The thank-you message's page (its timeline, shared with the run's history).
  await page.goto(`/w/${reactive.id}/messages/${thankYou}`);
  await expect(page.getByRole("list", { name: "Timeline, oldest first" }).getByRole("listitem").first()).toContainText(
    "A flow's send step wrote the message",
  );
  await checkPageAtWidths(page, "react-message");
});
