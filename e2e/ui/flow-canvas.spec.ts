import type { Page } from "@playwright/test";
import { addStep, outlineStep, selectStep, stepForm, stepNode } from "./fixtures/flow-canvas.ts";
import { setMode } from "./fixtures/messages.ts";
import { checkPageAtWidths } from "./fixtures/page-checks.ts";
import { expect, test } from "./fixtures/test.ts";

// The journey canvas (issue 38): an admin of the seeded "Flows" workspace builds a flow with a
// branch on the canvas (a + per place, the node's form beside it, a node selected from the
// keyboard), is refused with a fault said in words at its field and linked from a summary, fixes
// it, saves, and after contacts are enrolled through the public API sees D69's numbers on the
// nodes. At 390 px the canvas is an outline of the steps, still selectable. The runs are live
// (a live key made for the test): the nodes show the runs of the mode of the top bar's switch,
// turned to live here (the workspace has sent no live message, so it opens on test data).

test.use({ permissions: ["clipboard-read", "clipboard-write"] });

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** A live key of the workspace that may enroll, made through the dashboard's own API. */
async function liveKey(page: Page, workspaceId: string): Promise<string> {
  const response = await page.request.post("/api/trpc/keys.create", {
    headers: { "x-svc-workspace": workspaceId, "content-type": "application/json" },
    data: { name: `Canvas ${unique()}`, mode: "live", scopes: ["flows:enroll"] },
  });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { result: { data: { key: string } } }).result.data.key;
}

test("an admin builds a flow with a branch on the canvas, fixes a fault said in words, and sees runs by step on its nodes", async ({
  page,
  seed,
  signIn,
}) => {
  test.setTimeout(240_000);
  const { flows } = seed;
  const name = `Canvas ${unique()}`;
  await signIn(flows.admin);
  await page.goto(`/w/${flows.id}/flows/new`);
  await expect(page.getByRole("heading", { level: 1, name: "New flow" })).toBeVisible();
  await page.getByLabel("Name", { exact: true }).fill(name);

  // Step 1: a branch on the tag (left without its tag for now); a field set on `then`, the tag added on `else`.
  await addStep(page, "Branch (if / else)", "at the start");
  await expect(stepForm(page, "Step 1").getByLabel("If", { exact: true })).toHaveValue("has_tag");
  await expect(page.getByRole("img", { name: "then: from Step 1 to Step 1 › then" })).toBeAttached();
  await expect(page.getByRole("img", { name: "else: from Step 1 to Step 1 › else" })).toBeAttached();
  await addStep(page, "Set a custom field", "to Step 1 › then");
  const then = stepForm(page, "Step 1 › then › 1");
  await then.getByLabel("Field", { exact: true }).selectOption(flows.fieldKey);
  await then.getByLabel("Value", { exact: true }).fill("vip");
  await addStep(page, "Add or remove tags", "to Step 1 › else");
  await stepForm(page, "Step 1 › else › 1").getByRole("group", { name: "Tags to add" }).getByLabel(flows.tagName).check();
  // Step 2, after the branch: wait a day (the runs stay there).
  await addStep(page, "Wait", "after Step 1");
  await stepForm(page, "Step 2").getByRole("button", { name: "1 day", exact: true }).click();
  await expect(stepNode(page, "Step 2")).toContainText("Wait 1 day");
  await expect(stepNode(page, "Step 1 › else › 1")).toContainText(`Add tag ${flows.tagName}`);

  // From the keyboard: a node takes the focus and Enter opens its form.
  await stepNode(page, "Step 1").focus();
  await page.keyboard.press("Enter");
  await expect(stepForm(page, "Step 1").getByRole("heading", { name: /^Step 1/ })).toBeFocused();

  // Saving is refused: the summary says the fault in words and links to it; the field says it too.
  await selectStep(page, "Step 2");
  await page.getByRole("button", { name: "Create flow" }).click();
  const summary = page.getByRole("alert").filter({ hasText: "Not saved: fix this first." });
  await expect(summary.getByRole("listitem")).toHaveText("Step 1 (Branch (if / else)): Choose a tag.");
  await expect(summary).not.toContainText("steps.");
  await expect(stepNode(page, "Step 1")).toContainText("Needs a fix");
  await selectStep(page, "Step 2");
  await summary.getByRole("link", { name: /^Step 1/ }).click();
  const branch = stepForm(page, "Step 1");
  const tag = branch.getByLabel("Tag", { exact: true });
  await expect(tag).toBeFocused();
  await expect(tag).toHaveAttribute("aria-invalid", "true");
  await expect(branch.getByRole("alert")).toHaveText("Choose a tag.");
  await tag.selectOption({ label: flows.tagName });
  await page.getByRole("button", { name: "Create flow" }).click();

  await expect(page).toHaveURL(/\/flows\/flow_\w+/);
  const flowId = /\/flows\/(flow_\w+)/.exec(page.url())![1]!;
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "Flow created as a draft." })).toBeVisible();
  await expect(stepNode(page, "Step 1")).toContainText(`If tagged ${flows.tagName}`);
  await expect(stepNode(page, "Step 1")).not.toContainText("Needs a fix");

  // The page's enroll command names this flow, the public API and the key's variable.
  const command = page.getByRole("region", { name: "Enroll from your backend" });
  await expect(command).toContainText(`curl -X POST http://`);
  await expect(command).toContainText(`/api/v1/flows/${flowId}/enroll`);
  await expect(command).toContainText(`-H "Authorization: Bearer $SVC_API_KEY"`);
  await command.getByRole("button", { name: "Copy the enroll command" }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(new RegExp(`/api/v1/flows/${flowId}/enroll`));

  // Archive is there, but quiet: the last of the status buttons, not the danger style.
  const status = page.getByRole("group", { name: "Flow status" });
  await expect(status.getByRole("button").last()).toHaveText("Archive…");
  await expect(status.getByRole("button", { name: "Archive…" })).not.toHaveClass(/danger/);
  await status.getByRole("button", { name: "Activate" }).click();
  await expect(page.getByRole("status").filter({ hasText: "The flow is active" })).toBeVisible();

  // Two contacts enrolled through the public API: no tag yet, so `else` tags them, then they wait.
  const key = await liveKey(page, flows.id);
  for (const n of [1, 2]) {
    const phone = `+55119${String((Date.now() + n) % 100_000_000).padStart(8, "0")}`;
    const response = await page.request.post(`/api/v1/flows/${flowId}/enroll`, {
      headers: { Authorization: `Bearer ${key}` },
      data: { to: { phone } },
    });
    expect(response.status(), await response.text()).toBe(201);
  }
  await setMode(page, "live");
  await expect(stepNode(page, "Step 2")).toContainText("2 reached · 2 waiting · 0 skipped", { timeout: 30_000 });
  await expect(stepNode(page, "Step 1")).toContainText("2 reached · 0 waiting · 0 skipped");
  await expect(stepNode(page, "Step 1 › else › 1")).toContainText("2 reached");
  await expect(stepNode(page, "Step 1 › then › 1")).toContainText("0 reached");

  // At 390 px the canvas is an outline of the steps, with the same numbers, still selectable.
  await page.setViewportSize({ width: 390, height: 844 });
  const outline = page.getByRole("region", { name: "Steps outline" });
  await expect(outline).toBeVisible();
  await expect(page.getByRole("application")).toBeHidden();
  await expect(outlineStep(page, "Step 2")).toContainText("2 reached · 2 waiting");
  await outlineStep(page, "Step 1 › else › 1").click();
  await expect(stepForm(page, "Step 1 › else › 1")).toBeVisible();
  await expect(outlineStep(page, "Step 1 › else › 1")).toHaveAttribute("aria-pressed", "true");
  await page.setViewportSize({ width: 1440, height: 900 });
  await checkPageAtWidths(page, "canvas-flow");

  // The flows list: the flow's id, with a button that copies it.
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Flows" }).click();
  const row = page.getByRole("row", { name: new RegExp(name) });
  await expect(row.getByRole("rowheader")).toContainText(flowId);
  await row.getByRole("button", { name: `Copy the ID of ${name}` }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(flowId);
  await checkPageAtWidths(page, "canvas-flows-list");
});
