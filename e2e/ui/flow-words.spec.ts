import type { Locator, Page } from "@playwright/test";
import { addStep, outlineStep, selectStep, stepForm, stepNode } from "./fixtures/flow-canvas.ts";
import { setMode } from "./fixtures/messages.ts";
import { checkPageAtWidths } from "./fixtures/page-checks.ts";
import { expect, test } from "./fixtures/test.ts";

// Issue 46, items 3 and 8, at 1440 and 390 px, in the seeded "Flows" workspace:
// - a refused edit of an active flow (an emptied message) is not said in the save dialog as a
//   document path: the dialog closes, the field is marked invalid with its own message, and a
//   summary at the top of the editor says it in words and leads to it;
// - the save dialog says what a waiting run waits for (the event's name) and when it times out;
//   "Save and move" says how many people moved; the statistics count them at the step they went
//   on waiting in; captions, statistics and history use the canvas's words ("timed out",
//   "path 1"), never the document's names (`on_timeout`, `wait_for`, "0→2").

test.beforeEach(() => test.setTimeout(180_000));

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** The step's node on the canvas, or its button in the outline at phone widths. */
const step = (page: Page, label: string): Locator => stepNode(page, label).or(outlineStep(page, label));

/** The statistics table of a version, and its row of a step (at phone widths each cell also shows its column's name). */
const statsRow = (page: Page, version: number, label: RegExp) =>
  page
    .getByRole("table", { name: `Version ${version} by step` })
    .getByRole("row")
    .filter({ has: page.getByRole("rowheader", { name: label }) });

/** Creates an active flow through the dashboard's API and answers its id. */
async function createFlow(page: Page, workspaceId: string, definition: unknown): Promise<string> {
  const response = await page.request.post("/api/trpc/flows.create", {
    headers: { "x-svc-workspace": workspaceId, "content-type": "application/json" },
    data: { definition },
  });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { result: { data: { flow_id: string } } }).result.data.flow_id;
}

for (const viewport of [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
]) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test("an edit of an active flow: a refused one said at its field, the preview's waits named and timed, the people moved counted", async ({
      page,
      seed,
      signIn,
    }) => {
      const { flows } = seed;
      const name = `Paid ${unique()}`;
      await signIn(flows.admin);
      const flowId = await createFlow(page, flows.id, {
        name,
        status: "active",
        steps: [
          {
            type: "wait_for",
            id: "paid",
            event: "order_paid",
            timeout: "P1D",
            on_event: [{ type: "send", id: "thanks", channel: "whatsapp", whatsapp: { body: "Thanks, {{name}}!" } }],
            on_timeout: [{ type: "send", id: "nudge", channel: "whatsapp", whatsapp: { body: "Still there, {{name}}?" } }],
          },
        ],
      });
      // Two people enrolled through the public API (test mode): both wait for order_paid.
      const runs: string[] = [];
      for (const who of ["Pia", "Paz"]) {
        const response = await page.request.post(`/api/v1/flows/${flowId}/enroll`, {
          headers: { Authorization: `Bearer ${flows.testKey}` },
          data: { to: { email: `${who.toLowerCase()}-${unique()}@example.com`, name: who } },
        });
        expect(response.status(), await response.text()).toBe(201);
        runs.push(((await response.json()) as { id: string }).id);
      }
      // When Pia's wait times out, from her run's history (the `waiting` entry's `until`).
      let until = "";
      await expect
        .poll(async () => {
          const response = await page.request.get(`/api/v1/runs/${runs[0]}`, { headers: { Authorization: `Bearer ${flows.testKey}` } });
          const run = (await response.json()) as { history: { kind: string; until?: string }[] };
          until = run.history.find((h) => h.kind === "waiting")?.until ?? "";
          return until;
        })
        .not.toBe("");

      await page.goto(`/w/${flows.id}/flows/${flowId}`);
      await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
      await setMode(page, "test");
      await expect(step(page, "Step 1")).toContainText("2 reached · 2 waiting · 0 skipped", { timeout: 30_000 });

      // The canvas's words everywhere: the steps' labels, the statistics, the runs' places.
      await expect(step(page, "Step 1 › timed out › 1")).toBeVisible();
      await expect(step(page, "Step 1 › event arrived › 1")).toBeVisible();
      const waitRow = statsRow(page, 1, /Step 1 · Wait for an event or a reply$/);
      await expect(waitRow.getByRole("cell")).toContainText(["2", "2", "0", "0", "paths taken: event arrived 0, timed out 0"]);
      await expect(statsRow(page, 1, /Step 1 › timed out › 1 · Send a message$/)).toHaveCount(1);
      const statistics = page.getByRole("region", { name: "Statistics" });
      await expect(statistics).not.toContainText(/on_timeout|on_event|wait_for|→/);
      const runsTable = page.getByRole("table", { name: "Runs" });
      await expect(runsTable.getByRole("row").filter({ hasText: "Pia" })).toContainText("Step 1 · Wait for an event or a reply");
      const hint = page.getByText(/^Saving changed steps makes a new version/);
      await expect(hint).toContainText("choose whether they stay on their version or move to the new one");

      // Item 3: the thank-you emptied and saved. The preview refuses it: no path in a dialog,
      // the summary at the top says it in words and leads to the field, marked invalid.
      const thanks = await selectStep(page, "Step 1 › event arrived › 1");
      await thanks.getByLabel("Message", { exact: true }).fill("");
      await page.getByRole("button", { name: "Save changes" }).click();
      const summary = page.getByRole("alert").filter({ hasText: "Not saved: fix this first." });
      await expect(summary.getByRole("listitem")).toHaveText(
        "Step 1 › event arrived › 1 (Send a message): Write the message or add a media URL.",
      );
      await expect(page.getByRole("dialog", { name: "Save this journey?" })).toBeHidden();
      await expect(page.getByText(/steps\.0\./)).toHaveCount(0);
      await expect(step(page, "Step 1 › event arrived › 1")).toContainText("Needs a fix");
      await selectStep(page, "Step 1");
      await summary.getByRole("link", { name: /^Step 1 › event arrived › 1/ }).click();
      const message = stepForm(page, "Step 1 › event arrived › 1").getByLabel("Message", { exact: true });
      await expect(message).toBeFocused();
      await expect(message).toHaveAttribute("aria-invalid", "true");
      const described = await message.getAttribute("aria-describedby");
      expect(described).toBeTruthy();
      await expect(page.locator(`[id="${described}"]`)).toHaveText("Write the message or add a media URL.");
      await checkPageAtWidths(page, `words-refused-${viewport.width}`);

      // Fixed, saved: the dialog says what each waits for and when it times out, under both versions.
      await message.fill("Thanks for paying, {{name}}!");
      await page.getByRole("button", { name: "Save changes" }).click();
      await expect(summary).toBeHidden();
      const dialog = page.getByRole("dialog", { name: "Save this journey?" });
      await dialog.getByRole("radio", { name: "Move them to the new version" }).check();
      const counts = dialog.getByRole("status", { name: "Preview counts" });
      await expect(counts).toHaveText("2 in the journey: 0 kept, 2 moved, 0 completed because their step is gone.");
      const pia = dialog
        .getByRole("table", { name: "People in the journey" })
        .getByRole("row")
        .filter({ has: page.getByRole("rowheader", { name: /Pia/ }) })
        .getByRole("cell");
      await expect(pia.nth(0)).toHaveText("Step 1 (Wait for an event or a reply)");
      for (const column of [1, 2]) {
        await expect(pia.nth(column)).toContainText("Waits for the event “order_paid”");
        await expect(pia.nth(column)).toContainText("Step 1 (Wait for an event or a reply) · timeout at ");
        await expect(pia.nth(column).locator("time")).toHaveAttribute("datetime", until);
      }
      await expect(dialog).not.toContainText("Waits for an event or a reply");
      await checkPageAtWidths(page, `words-preview-${viewport.width}`);

      await dialog.getByRole("button", { name: "Save and move" }).click();
      await expect(dialog).toBeHidden();
      await expect(page.getByRole("status").filter({ hasText: "Saved. The flow is at version 2. 2 people moved to it." })).toBeVisible();
      await expect(hint).not.toContainText("keep theirs");
      // Counted where they went on waiting on version 2; the runs say it without "(v1)".
      await expect(step(page, "Step 1")).toContainText("2 reached · 2 waiting · 0 skipped");
      await expect(statsRow(page, 2, /Step 1 · Wait for an event or a reply$/).getByRole("cell")).toContainText([
        "2",
        "2",
        "0",
        "0",
        "paths taken: event arrived 0, timed out 0",
      ]);
      await expect(runsTable.getByRole("row").filter({ hasText: "Pia" })).toContainText("Step 1 · Wait for an event or a reply");
      await expect(runsTable).not.toContainText("(v1)");
      await checkPageAtWidths(page, `words-moved-${viewport.width}`);
    });

    test("the canvas names the steps inside a wait's paths and a split's in words", async ({ page, seed, signIn }) => {
      const { flows } = seed;
      await signIn(flows.admin);
      await page.goto(`/w/${flows.id}/flows/new`);
      await expect(page.getByRole("heading", { level: 1, name: "New flow" })).toBeVisible();
      await addStep(page, "Wait for an event or a reply", "at the start");
      await addStep(page, "Random split", "to Step 1 › timed out");
      await addStep(page, "Exit", "to Step 1 › timed out › 1 › path 1");
      const form = stepForm(page, "Step 1 › timed out › 1 › path 1 › 1");
      await expect(form.getByRole("heading", { level: 3 })).toHaveText("Step 1 › timed out › 1 › path 1 › 1 Exit");
      await expect(step(page, "Step 1 › timed out › 1 › path 1 › 1")).toBeVisible();
      await expect(page.getByRole("button", { name: "Add a step to Step 1 › timed out › 1 › path 2" })).toBeVisible();
      // The canvas (or outline) and the step's form; the document's JSON below keeps its own names.
      await expect(page.locator(".canvas-layout")).not.toContainText(/on_timeout|on_event|paths\.\d/);
      await checkPageAtWidths(page, `words-canvas-${viewport.width}`);
    });
  });
}
