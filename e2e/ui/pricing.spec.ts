import { setMode } from "./fixtures/messages.ts";
import { checkPageAtWidths } from "./fixtures/page-checks.ts";
import { expect, test } from "./fixtures/test.ts";

// What WhatsApp messages cost (D89) on the seeded "Pricing" workspace: prices of 0.0625 USD a
// marketing and 0.0068 USD a utility message; this month 3 charged and 1 free marketing
// messages and 10 charged utility ones; a flow whose version 1 sent the 10 utility messages.
// The usage page shows the month's cost by category, the flow's canvas the cost of its version
// and its statistics the cost per version, at 1440 and 390 px.

test("the usage page shows the month's WhatsApp cost by category, and a flow its cost on the canvas and per version", async ({
  page,
  seed,
  signIn,
}) => {
  const { pricing } = seed;
  await signIn(pricing.admin);
  await page.goto(`/w/${pricing.id}/usage`);
  await expect(page.getByRole("heading", { level: 2, name: "WhatsApp cost this month" })).toBeVisible();
  const table = page.getByRole("table", { name: "WhatsApp messages by pricing category this month" });
  await expect(table.getByRole("row", { name: /^marketing/ }).locator("td")).toHaveText(["3", "1", "$0.0625", "$0.1875"]);
  await expect(table.getByRole("row", { name: /^utility/ }).locator("td")).toHaveText(["10", "0", "$0.0068", "$0.068"]);
  await expect(table.getByRole("row", { name: /^Total/ }).locator("td")).toHaveText(["13", "1", "", "$0.2555"]);
  await expect(page.getByText("Estimated cost: $0.2555.")).toBeVisible();
  await checkPageAtWidths(page, "usage-whatsapp-cost");

  await page.goto(`/w/${pricing.id}/flows/${pricing.flowId}`);
  await expect(page.getByRole("heading", { level: 1, name: "Order updates" })).toBeVisible();
  await setMode(page, "live");
  const version = page.getByRole("table", { name: "Version 1 by step" });
  await expect(version.locator("caption")).toHaveText("Version 1 · estimated WhatsApp cost $0.068");
  // The canvas, whose nodes carry the current version's numbers, heads them with its cost.
  const canvasCost = page.getByText("Version 1, live mode: estimated WhatsApp cost $0.068");
  await expect(canvasCost).toBeVisible();
  // At 390 px the outline stands in for the graph: the cost still heads it.
  const wide = page.viewportSize()!;
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(canvasCost).toBeVisible();
  await page.setViewportSize(wide);
  await checkPageAtWidths(page, "flow-whatsapp-cost");
});
