import { readFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import { addStep, runRow, selectStep, stepForm, stepNode } from "./fixtures/flow-canvas.ts";
import { expect, test } from "./fixtures/test.ts";

// The flows page, a flow's editor (its canvas: fixtures/flow-canvas.ts) and its runs, in the "Flows" workspace seeded by
// fixtures/seed.ts (a test key with flows:enroll, the tag "Flow Welcomed", the text field
// `stage`, and the active flow "Seeded nurture" with one test run waiting a day). The server
// runs the pipeline inline, so an enrolled run walks its steps while the test watches.

test.use({ permissions: ["clipboard-read", "clipboard-write"] });

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

async function openFlows(page: Page): Promise<void> {
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Flows" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Flows" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Flows" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByRole("table", { name: "Flows" })).toBeVisible();
}

const step = stepForm;

/** Enrolls a phone through the public API with the seeded test key; returns the run's id. */
async function enroll(page: Page, key: string, flowId: string, phone: string, variables?: Record<string, string>): Promise<string> {
  const response = await page.request.post(`/api/v1/flows/${flowId}/enroll`, {
    headers: { Authorization: `Bearer ${key}` },
    data: { to: { phone }, ...(variables ? { variables } : {}) },
  });
  expect(response.status(), await response.text()).toBe(201);
  const run = (await response.json()) as { id: string; status: string; flow_id: string };
  expect(run).toMatchObject({ status: "active", flow_id: flowId });
  return run.id;
}

test("an admin builds a flow in the editor, sees a fault at its step, activates it, and watches an enrolled run complete", async ({
  page,
  seed,
  signIn,
}) => {
  test.setTimeout(90_000);
  const { flows } = seed;
  const name = `Welcome ${unique()}`;
  await signIn(flows.admin);
  await openFlows(page);
  await page.getByRole("link", { name: "New flow" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "New flow" })).toBeVisible();
  await page.getByLabel("Name", { exact: true }).fill(name);

  // Step 1: add the tag.
  await addStep(page, "Add or remove tags", "at the start");
  await step(page, "Step 1").getByRole("group", { name: "Tags to add" }).getByLabel(flows.tagName).check();
  // Step 2: a branch on that tag, with a set_field step inside `then`.
  await addStep(page, "Branch (if / else)", "after Step 1");
  await expect(step(page, "Step 2").getByLabel("If", { exact: true })).toHaveValue("has_tag");
  await step(page, "Step 2").getByLabel("Tag", { exact: true }).selectOption({ label: flows.tagName });
  await addStep(page, "Set a custom field", "to Step 2 › then");
  const nested = step(page, "Step 2 › then › 1");
  await nested.getByLabel("Field", { exact: true }).selectOption(flows.fieldKey);
  await nested.getByLabel("Value", { exact: true }).fill("vip");
  // Step 3: a WhatsApp message, left empty for now; step 4: set a field.
  await addStep(page, "Send a message", "after Step 2");
  await addStep(page, "Set a custom field", "after Step 3");
  await step(page, "Step 4").getByLabel("Field", { exact: true }).selectOption(flows.fieldKey);
  await step(page, "Step 4").getByLabel("Value", { exact: true }).fill("onboarded");
  // Reorder: move step 4 up and back down (the form follows the step).
  await page.getByRole("button", { name: "Move Step 4 up" }).click();
  await expect(step(page, "Step 3").getByLabel("Value", { exact: true })).toHaveValue("onboarded");
  await page.getByRole("button", { name: "Move Step 3 down" }).click();
  await expect(step(page, "Step 4").getByLabel("Value", { exact: true })).toHaveValue("onboarded");

  // The empty body is refused by the server: the fault is said in words at step 3, whose form opens.
  await page.getByRole("button", { name: "Create flow" }).click();
  const send = step(page, "Step 3");
  await expect(send.getByRole("alert")).toHaveText("Write the message or add a media URL.");
  await expect(send).toHaveClass(/has-fault/);
  const body = send.getByLabel("Message", { exact: true });
  await expect(body).toHaveAttribute("aria-invalid", "true");
  await expect(body).toBeFocused();
  await expect(stepNode(page, "Step 3")).toContainText("Needs a fix");
  await expect(stepNode(page, "Step 1")).not.toContainText("Needs a fix");

  // A placeholder hint inserts at the cursor; the custom field's key is offered too.
  const hints = send.getByRole("group", { name: "Placeholders" });
  await expect(hints.getByRole("button", { name: "{{stage}}" })).toBeVisible();
  await body.fill("Hello ");
  await hints.getByRole("button", { name: "{{name}}" }).click();
  await expect(body).toHaveValue("Hello {{name}}");
  await body.press("End");
  await body.pressSequentially("!");
  await expect(body).toHaveValue("Hello {{name}}!");

  await page.getByRole("button", { name: "Create flow" }).click();
  await expect(page).toHaveURL(/\/flows\/flow_\w+/);
  const flowId = /\/flows\/(flow_\w+)/.exec(page.url())![1]!;
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "Flow created as a draft." })).toBeVisible();
  await expect(page.locator(".flow-meta")).toContainText("draft");

  // Export: the download, the copy and the document the editor shows are the same JSON.
  const expected = {
    name,
    status: "draft",
    allow_reentry: false,
    steps: [
      { type: "tag", add: [flows.tagId] },
      { type: "branch", if: { has_tag: flows.tagId }, then: [{ type: "set_field", key: "stage", value: "vip" }], else: [] },
      { type: "send", channel: "whatsapp", whatsapp: { body: "Hello {{name}}!" } },
      { type: "set_field", key: "stage", value: "onboarded" },
    ],
  };
  await page.getByText("Flow document (JSON)").click();
  const shown = (await page.getByLabel("Flow document", { exact: true }).textContent()) ?? "";
  // D70: the service gave every step an id, and the export shows it.
  expect(JSON.parse(shown)).toMatchObject(expected);
  expect(JSON.stringify(JSON.parse(shown).steps)).toMatch(/"id":"st_[\w-]{8}"/);
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download JSON" }).click()]);
  const downloaded = readFileSync((await download.path())!, "utf8");
  expect(downloaded).toBe(shown);
  await page.getByRole("button", { name: "Copy the flow document" }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(shown);

  // Activate; enrolling through the public API with the test key starts a run.
  await page.getByRole("group", { name: "Flow status" }).getByRole("button", { name: "Activate" }).click();
  await expect(page.getByRole("status").filter({ hasText: "The flow is active" })).toBeVisible();
  await expect(page.locator(".flow-meta")).toContainText("active");
  const runId = await enroll(page, flows.testKey, flowId, "+5511955550001", { name: "Bia" });

  const row = await runRow(page, runId);
  await expect(row).toContainText("completed");
  await expect(row).toContainText("test");
  await row.getByRole("button", { name: `History of run ${runId}` }).click();
  const dialog = page.getByRole("dialog", { name: `Run ${runId}` });
  const history = dialog.getByRole("list", { name: "Run history, oldest first" }).getByRole("listitem");
  await expect(history).toHaveCount(7);
  await expect(history.nth(0)).toContainText("Entered the flow on version 1.");
  await expect(history.nth(1)).toContainText("Step 1 · Add or remove tags");
  await expect(history.nth(2)).toContainText("Took the “then” side of the branch.");
  await expect(history.nth(3)).toContainText("Step 2 › then › 1 · Set a custom field");
  await expect(history.nth(4)).toContainText(/Step 3 · Send a message.*Sent a WhatsApp message msg_/);
  await expect(history.nth(5)).toContainText("to “onboarded”");
  await expect(history.nth(6)).toContainText("Went through the flow to its end.");
  await expect(dialog.getByRole("button", { name: "Unenroll…" })).toHaveCount(0);
  await dialog.getByRole("button", { name: "Close" }).click();

  // The status filter and the list's counts.
  await page.getByLabel("Status", { exact: true }).selectOption("stopped");
  await expect(page.getByText("No stopped runs.")).toBeVisible();
  await page.getByLabel("Status", { exact: true }).selectOption("completed");
  await expect(page.getByRole("table", { name: "Runs" }).getByRole("row").filter({ hasText: runId })).toBeVisible();
  await openFlows(page);
  await expect(page.getByRole("row", { name: new RegExp(name) }).locator("td")).toHaveText(["active", "1", "0", "1", "0", "0", /\d/]);
});

test("an admin imports a flow that waits, sees its run waiting and unenrolls it with a reason", async ({ page, seed, signIn }) => {
  test.setTimeout(90_000);
  const { flows } = seed;
  const name = `Wait ${unique()}`;
  await signIn(flows.admin);
  await openFlows(page);

  // Import JSON: a refused document shows the server's fault; a good one becomes the flow.
  await page.getByRole("button", { name: "Import JSON" }).click();
  const dialog = page.getByRole("dialog", { name: "Import a flow" });
  const text = dialog.getByLabel("Flow document (JSON)");
  await text.fill(JSON.stringify({ name, steps: [{ type: "wait", duration: "one hour" }] }));
  await dialog.getByRole("button", { name: "Import flow" }).click();
  await expect(dialog.getByRole("alert")).toHaveText("Step 1: Enter a duration such as PT1H (an hour) or P2D (two days).");
  const document = {
    name,
    status: "active",
    steps: [
      { type: "wait", duration: "PT1H" },
      { type: "set_field", key: "stage", value: "late" },
    ],
  };
  await text.fill(JSON.stringify(document));
  await dialog.getByRole("button", { name: "Import flow" }).click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  const flowId = /\/flows\/(flow_\w+)/.exec(page.url())![1]!;
  await expect(page.locator(".flow-meta")).toContainText("active");
  // The editor shows the wait with its duration.
  await expect(step(page, "Step 1").getByLabel("Duration", { exact: true })).toHaveValue("PT1H");
  await expect(step(page, "Step 1").getByRole("button", { name: "1 hour" })).toHaveAttribute("aria-pressed", "true");

  const runId = await enroll(page, flows.testKey, flowId, "+5511955550002");
  const row = await runRow(page, runId);
  await expect(row).toContainText("active");
  // Waiting before step 2, due in an hour.
  await expect(row).toContainText("Step 2 · Set a custom field");
  await expect(row.locator("time").first()).toBeVisible();

  await row.getByRole("button", { name: `History of run ${runId}` }).click();
  const run = page.getByRole("dialog", { name: `Run ${runId}` });
  await expect(run.getByRole("list", { name: "Run history, oldest first" })).toContainText("Began waiting 1 hour, until");
  await run.getByRole("button", { name: "Unenroll…" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Unenroll this contact?" });
  await confirm.getByLabel("Reason").fill("asked to stop");
  await confirm.getByRole("button", { name: "Unenroll", exact: true }).click();
  await expect(confirm).toHaveCount(0);
  await expect(page.getByRole("status").filter({ hasText: `Run ${runId} stopped.` })).toBeVisible();
  const reopened = page.getByRole("dialog", { name: `Run ${runId}` });
  await expect(reopened.locator("dd").first()).toHaveText("stopped");
  await expect(reopened).toContainText("asked to stop");
  await expect(reopened.getByRole("list", { name: "Run history, oldest first" })).toContainText("Left the flow: asked to stop");
  await reopened.getByRole("button", { name: "Close" }).click();
  await expect(row).toContainText("stopped");
  await expect(row).toContainText("asked to stop");
  await expect(row.getByRole("button", { name: `Unenroll run ${runId}` })).toHaveCount(0);

  // Archive asks first and says it stops the active runs.
  await page.getByRole("group", { name: "Flow status" }).getByRole("button", { name: "Archive…" }).click();
  const archive = page.getByRole("alertdialog", { name: "Archive this flow?" });
  await expect(archive).toContainText("stops its 0 active runs");
  await archive.getByRole("button", { name: "Archive flow" }).click();
  await expect(page.locator(".flow-meta")).toContainText("archived");
  await expect(page.getByRole("button", { name: "Save changes" })).toHaveCount(0);
  await expect(page.getByRole("group", { name: "Flow status" })).toHaveCount(0);
});

test("support staff see flows, a flow's document and runs, but no controls that change them", async ({ page, seed, signIn }) => {
  const { flows } = seed;
  await signIn(flows.support);
  await openFlows(page);
  await expect(page.getByText("You have read-only access")).toBeVisible();
  await expect(page.getByRole("link", { name: "New flow" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Import JSON" })).toHaveCount(0);

  await page.getByRole("link", { name: flows.seededFlow.name }).click();
  await expect(page.getByRole("heading", { level: 1, name: flows.seededFlow.name })).toBeVisible();
  await expect(step(page, "Step 1").getByLabel("Duration", { exact: true })).toHaveValue("P1D");
  await expect(step(page, "Step 1").getByLabel("Duration", { exact: true })).toBeDisabled();
  await expect((await selectStep(page, "Step 2")).getByRole("group", { name: "Tags to add" }).getByRole("checkbox").first()).toBeDisabled();
  await expect(page.getByRole("group", { name: "Flow status" })).toHaveCount(0);
  for (const name of ["Save changes", "Add a step after Step 1", "Import JSON…", "Delete Step 1", "Move Step 2 up"]) {
    await expect(page.getByRole("button", { name, exact: true })).toHaveCount(0);
  }
  await expect(page.getByRole("button", { name: "Download JSON" })).toBeVisible();

  const row = page.getByRole("table", { name: "Runs" }).getByRole("row").filter({ hasText: flows.seededFlow.runId });
  await expect(row).toContainText("active");
  await expect(row.getByRole("button", { name: `Unenroll run ${flows.seededFlow.runId}` })).toHaveCount(0);
  await row.getByRole("button", { name: `History of run ${flows.seededFlow.runId}` }).click();
  const run = page.getByRole("dialog", { name: `Run ${flows.seededFlow.runId}` });
  await expect(run.getByRole("list", { name: "Run history, oldest first" })).toContainText("Entered the flow on version 1.");
  await expect(run.getByRole("button", { name: "Unenroll…" })).toHaveCount(0);

  // A new flow's editor is not theirs.
  const response = await page.goto(`/w/${flows.id}/flows/new`);
  expect(response?.status()).toBe(404);
});
