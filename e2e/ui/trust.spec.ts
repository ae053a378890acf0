import type { Locator } from "@playwright/test";
import { addStep, selectStep, stepForm, stepNode } from "./fixtures/flow-canvas.ts";
import { setMode } from "./fixtures/messages.ts";
import { checkPageAtWidths } from "./fixtures/page-checks.ts";
import { expect, test } from "./fixtures/test.ts";

// Journeys people trust (issue 32), in the "Trust" workspace seeded by fixtures/seed.ts: the
// active flow "Order ready" (wait a day, then "Your order is ready, {{name}}.") holds two live
// runs, Tom's and Tia's, waiting in its first step.
// - An admin sees the numbers on the flow's nodes (D69), edits the message, and the save dialog
//   previews each person (D70, D83): where each is, the next message rendered under the old and
//   the new version, and when; "move" changes what the new column says; saving with move puts
//   the runs on version 2 (their history says so) and a preview of the next edit shows the new
//   message as theirs now.
// - A random split (D68) edited in the canvas's form: a weight the service refuses is said in
//   words at its field, fixed, and the shares are drawn on the canvas.

// Signing in and loading the pages' scripts is slow on a loaded 2-core machine.
test.beforeEach(() => test.setTimeout(180_000));

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** The preview table's row of one person. */
const personRow = (table: Locator, name: string) => table.getByRole("row").filter({ has: table.page().getByRole("rowheader", { name }) });

test("an admin edits an active flow, sees each person's next message before and after in the save dialog, moves them, and their runs follow the new version", async ({
  page,
  seed,
  signIn,
}) => {
  const { trust } = seed;
  await signIn(trust.admin);
  await page.goto(`/w/${trust.id}/flows/${trust.flowId}`);
  await expect(page.getByRole("heading", { level: 1, name: trust.flowName })).toBeVisible();
  // The runs are live, and the workspace has sent no live message: the top bar starts on test data.
  await setMode(page, "live");

  // The numbers on the nodes: both runs reached the wait and wait there; nobody reached the message yet.
  await expect(stepNode(page, "Step 1")).toContainText("2 reached · 2 waiting · 0 skipped", { timeout: 30_000 });
  await expect(stepNode(page, "Step 2")).toContainText("0 reached · 0 waiting · 0 skipped");

  // The edit: the message says something else.
  const message = (await selectStep(page, "Step 2")).getByLabel("Message", { exact: true });
  await message.fill("Your order ships today, {{name}}.");
  await page.getByRole("button", { name: "Save changes" }).click();

  const dialog = page.getByRole("dialog", { name: "Save this journey?" });
  const counts = dialog.getByRole("status", { name: "Preview counts" });
  await expect(counts).toHaveText("2 in the journey: 2 kept, 0 moved, 0 completed because their step is gone.");
  const table = dialog.getByRole("table", { name: "People in the journey" });
  await expect(table.getByRole("columnheader")).toHaveText(["Person", "Now at", "Next, as it is", "Next, after saving"]);
  for (const name of trust.contacts) {
    const row = personRow(table, name);
    await expect(row.getByRole("rowheader")).toContainText(/\+1555010930\d/);
    const cells = row.getByRole("cell");
    await expect(cells.nth(0)).toHaveText("Step 1 (Wait)");
    // Kept on version 1: the same message, rendered for the person, at the same time.
    await expect(cells.nth(1)).toContainText(`Sends “Your order is ready, ${name}.”`);
    await expect(cells.nth(1)).toContainText("Step 2 (Send a message)");
    await expect(cells.nth(1).locator("time")).toHaveAttribute("datetime", /T/);
    await expect(cells.nth(2)).toContainText(`Sends “Your order is ready, ${name}.”`);
    await expect(cells.nth(2)).not.toContainText("Changes");
  }
  const tom = personRow(table, trust.contacts[0]!).getByRole("cell");
  const due = await tom.nth(1).locator("time").getAttribute("datetime");

  // Move: the new version's message, when it was due (a wait keeps its due time), marked as a change.
  await dialog.getByRole("radio", { name: "Move them to the new version" }).check();
  await expect(counts).toHaveText("2 in the journey: 0 kept, 2 moved, 0 completed because their step is gone.");
  for (const name of trust.contacts) {
    const cells = personRow(table, name).getByRole("cell");
    await expect(cells.nth(1)).toContainText(`Sends “Your order is ready, ${name}.”`);
    await expect(cells.nth(2)).toContainText(`Sends “Your order ships today, ${name}.”`);
    await expect(cells.nth(2)).toContainText("Changes");
  }
  await expect(tom.nth(2).locator("time")).toHaveAttribute("datetime", due!);
  await checkPageAtWidths(page, "trust-save-preview");

  await dialog.getByRole("button", { name: "Save and move" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("status").filter({ hasText: "Saved. The flow is at version 2." })).toBeVisible();

  // Tom's run is on version 2: its history says it moved.
  const runs = page.getByRole("table", { name: "Runs" });
  const row = runs.getByRole("row").filter({ hasText: trust.contacts[0]! });
  await row.getByRole("button", { name: /^History of run / }).click();
  const run = page.getByRole("dialog", { name: /^Run run_/ });
  await expect(run.getByRole("list", { name: "Run history, oldest first" })).toContainText(
    "Moved to version 2 by an edit of the flow (it was on version 1).",
  );
  await run.getByRole("button", { name: "Close" }).click();

  // The next edit's preview: as it is now, their next message is the new one.
  await page.getByLabel("Name", { exact: true }).fill(`${trust.flowName} (renamed)`);
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(counts).toHaveText("2 in the journey: 2 kept, 0 moved, 0 completed because their step is gone.");
  for (const name of trust.contacts) {
    await expect(personRow(table, name).getByRole("cell").nth(1)).toContainText(`Sends “Your order ships today, ${name}.”`);
  }
  await expect(tom.nth(1).locator("time")).toHaveAttribute("datetime", due!);
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
});

test("a random split's weights are edited in the canvas's form, a bad one refused at its field in words", async ({
  page,
  seed,
  signIn,
}) => {
  const { trust } = seed;
  await signIn(trust.admin);
  await page.goto(`/w/${trust.id}/flows/new`);
  await expect(page.getByRole("heading", { level: 1, name: "New flow" })).toBeVisible();
  await page.getByLabel("Name", { exact: true }).fill(`Split ${unique()}`);

  await addStep(page, "Random split", "at the start");
  const split = stepForm(page, "Step 1");
  await expect(stepNode(page, "Step 1")).toContainText("Split 50/50");
  // A third path, then path 2 weighed 0: the canvas draws the shares of what is valid so far.
  await split.getByRole("button", { name: "Add a path" }).click();
  await split.getByLabel("Weight of path 2", { exact: true }).fill("0");
  await split.getByLabel("Weight of path 3", { exact: true }).fill("25");
  await expect(stepNode(page, "Step 1")).toContainText("Split 67/0/33");
  await expect(page.getByRole("img", { name: "Path 3 · 33%: from Step 1 to Step 1 › path 3" })).toBeAttached();
  await addStep(page, "Exit", "to Step 1 › path 1");

  await page.getByRole("button", { name: "Create flow" }).click();
  const summary = page.getByRole("alert").filter({ hasText: "Not saved: fix this first." });
  await expect(summary.getByRole("listitem")).toHaveText("Step 1 (Random split): Give path 2 a whole-number weight of 1 or more.");
  await summary.getByRole("link", { name: /^Step 1/ }).click();
  const weight = stepForm(page, "Step 1").getByLabel("Weight of path 2", { exact: true });
  await expect(weight).toBeFocused();
  await expect(weight).toHaveAttribute("aria-invalid", "true");
  await expect(stepForm(page, "Step 1").getByRole("alert")).toHaveText("Give path 2 a whole-number weight of 1 or more.");
  await expect(stepNode(page, "Step 1")).toContainText("Needs a fix");
  await checkPageAtWidths(page, "trust-split-fault");

  // Fixed: 50/25/25, saved as it is drawn.
  await weight.fill("25");
  await expect(stepForm(page, "Step 1").getByText("25% of the runs")).toHaveCount(2);
  await page.getByRole("button", { name: "Create flow" }).click();
  await expect(page).toHaveURL(/\/flows\/flow_\w+/);
  await expect(page.getByRole("status").filter({ hasText: "Flow created as a draft." })).toBeVisible();
  await expect(stepNode(page, "Step 1")).toContainText("Split 50/25/25");
  await expect(stepNode(page, "Step 1 › path 1 › 1")).toBeVisible();
  await page.getByText("Flow document (JSON)").click();
  const shown = JSON.parse((await page.getByLabel("Flow document", { exact: true }).textContent()) ?? "{}") as {
    steps: { type: string; paths: { weight: number }[] }[];
  };
  expect(shown.steps[0]!.paths.map((p) => p.weight)).toEqual([50, 25, 25]);
});
