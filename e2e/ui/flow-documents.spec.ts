import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { promisify } from "node:util";
import type { Page } from "@playwright/test";
import { ROOT } from "../support/server.ts";
import { addStep, selectStep, stepForm } from "./fixtures/flow-canvas.ts";
import { WIDTHS } from "./fixtures/page-checks.ts";
import { DATA_DIR_VAR } from "./fixtures/target.ts";
import { expect, test } from "./fixtures/test.ts";

// Issue 46: a journey with a random split whose first path holds a branch and a wait_for is
// built in the editor, saved, activated, edited three times (each save through the per-run
// preview of the save dialog, the last one moving the runs), and exported; the exported JSON is
// imported again with `svc flow import --flow … --migrate keep` and nothing changes. After every
// save the editor holds the stored document (D37's canonical form, no "paths.N.steps" members
// beside a split's paths) and every step keeps its id (D70). At 1440 and at 390 px (the outline).

type Json = Record<string, unknown>;
type Doc = Json & { steps: Json[] };

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** Every step's id by its place, walking the document's own members. */
function ids(steps: unknown, base = "steps", out = new Map<string, unknown>()): Map<string, unknown> {
  if (!Array.isArray(steps)) return out;
  steps.forEach((step: Json, i) => {
    const at = `${base}.${i}`;
    out.set(at, step.id);
    for (const side of ["then", "else", "on_event", "on_timeout"]) ids(step[side], `${at}.${side}`, out);
    if (Array.isArray(step.paths)) (step.paths as Json[]).forEach((p, j) => ids(p.steps, `${at}.paths.${j}.steps`, out));
  });
  return out;
}

/** The flow's stored document, as the editor loads it (the dashboard's own API). */
async function stored(page: Page, workspace: string, flowId: string): Promise<{ version: number; definition: Doc }> {
  const input = encodeURIComponent(JSON.stringify({ flow_id: flowId }));
  const response = await page.request.get(`/api/trpc/flows.get?input=${input}`, { headers: { "x-svc-workspace": workspace } });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { result: { data: { version: number; definition: Doc } } }).result.data;
}

/** The document the editor shows (its JSON view). */
async function shown(page: Page): Promise<Doc> {
  const view = page.getByLabel("Flow document", { exact: true });
  if (!(await view.isVisible())) await page.getByText("Flow document (JSON)").click();
  return JSON.parse((await view.textContent()) ?? "{}") as Doc;
}

/** The operator CLI beside the UI tests' server, on its embedded store (D53). */
async function svc(...args: string[]): Promise<Json> {
  const { stdout } = await promisify(execFile)(process.execPath, ["bin/svc.mjs", ...args, "--json"], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: undefined, DATA_DIR: process.env[DATA_DIR_VAR] },
    encoding: "utf8",
  });
  return JSON.parse(stdout) as Json;
}

for (const { name: widthName, width, height } of WIDTHS) {
  test(`a journey with a split holding a branch and a wait_for is built, edited three times through the preview, exported and imported again unchanged (${widthName})`, async ({
    page,
    seed,
    signIn,
  }) => {
    // Four saves, each with its preview, and three runs of the CLI, on a busy machine.
    test.setTimeout(420_000);
    const { flows } = seed;
    await page.setViewportSize({ width, height });
    await signIn(flows.admin);
    await page.goto(`/w/${flows.id}/flows/new`);
    await expect(page.getByRole("heading", { level: 1, name: "New flow" })).toBeVisible();
    await page.getByLabel("Name", { exact: true }).fill(`Split journey ${unique()}`);

    // A split; its first path: a branch on the tag, then a wait for an event; its second: a tag.
    await addStep(page, "Random split", "at the start");
    await addStep(page, "Branch (if / else)", "to Step 1 › path 1");
    await stepForm(page, "Step 1 › path 1 › 1").getByLabel("Tag", { exact: true }).selectOption({ label: flows.tagName });
    await addStep(page, "Wait for an event or a reply", "after Step 1 › path 1 › 1");
    await stepForm(page, "Step 1 › path 1 › 2").getByLabel("Event name", { exact: true }).fill("order_paid");
    await addStep(page, "Add or remove tags", "to Step 1 › path 2");
    await stepForm(page, "Step 1 › path 2 › 1").getByRole("group", { name: "Tags to add" }).getByLabel(flows.tagName).check();
    await page.getByRole("button", { name: "Create flow" }).click();
    await expect(page).toHaveURL(/\/flows\/flow_\w+/);
    const flowId = /\/flows\/(flow_\w+)/.exec(page.url())![1]!;
    await page.getByRole("group", { name: "Flow status" }).getByRole("button", { name: "Activate" }).click();
    await expect(page.getByRole("status").filter({ hasText: "The flow is active" })).toBeVisible();

    let before = await stored(page, flows.id, flowId);
    expect(JSON.stringify(before.definition)).not.toContain('"paths.');
    const first = ids(before.definition.steps);
    expect([...first.keys()]).toEqual(["steps.0", "steps.0.paths.0.steps.0", "steps.0.paths.0.steps.1", "steps.0.paths.1.steps.0"]);
    for (const id of first.values()) expect(id).toEqual(expect.any(String));

    /** Saves through the save dialog's preview (`move` or the default `keep`); the editor then holds the stored document, every step its id. */
    async function saveThroughPreview(version: number, move = false) {
      await page.getByRole("button", { name: "Save changes" }).click();
      const dialog = page.getByRole("dialog");
      if (move) await dialog.getByRole("radio", { name: /move/i }).check();
      const save = dialog.getByRole("button", { name: /^Save/ });
      await expect(save).toBeEnabled();
      await save.click();
      await expect(dialog).toBeHidden();
      await expect(page.getByRole("status").filter({ hasText: `version ${version}` })).toBeVisible();
      const after = await stored(page, flows.id, flowId);
      expect(after.version).toBe(version);
      expect(JSON.stringify(after.definition)).not.toContain('"paths.');
      const kept = ids(after.definition.steps);
      for (const [at, id] of ids(before.definition.steps)) expect(kept.get(at), at).toBe(id);
      for (const id of kept.values()) expect(id).toEqual(expect.any(String));
      expect((await shown(page)).steps).toEqual(after.definition.steps);
      before = after;
    }

    // Edit 1: the split's shares.
    await (await selectStep(page, "Step 1")).getByLabel("Weight of path 1", { exact: true }).fill("70");
    await saveThroughPreview(2);
    // Edit 2: what the wait_for waits for, and for how long.
    const waitFor = await selectStep(page, "Step 1 › path 1 › 2");
    await waitFor.getByLabel("Event name", { exact: true }).fill("order_shipped");
    await waitFor.getByRole("group", { name: "Timeout presets" }).getByRole("button", { name: "3 days" }).click();
    await saveThroughPreview(3);
    // Edit 3: a step in the branch's `then`, the runs moved to the new version.
    await addStep(page, "Exit", "to Step 1 › path 1 › 1 › then");
    await saveThroughPreview(4, true);
    expect(ids(before.definition.steps).size).toBe(5);

    // Exported: the stored document; imported again with --migrate keep, nothing changes.
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download JSON" }).click()]);
    const file = await download.path();
    const exported = JSON.parse(readFileSync(file, "utf8")) as Doc;
    expect(exported).toEqual(before.definition);
    expect(await svc("flow", "export", "--workspace", flows.id, "--flow", flowId)).toEqual(exported);
    expect(await svc("flow", "import", "--workspace", flows.id, "--file", file, "--flow", flowId, "--migrate", "keep")).toEqual({
      flow_id: flowId,
      version: 4,
    });
    expect((await stored(page, flows.id, flowId)).definition).toEqual(exported);
  });
}
