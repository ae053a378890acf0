import type { Page } from "@playwright/test";
import { openContact } from "./fixtures/contacts.ts";
import { checkPageAtWidths, WIDTHS } from "./fixtures/page-checks.ts";
import type { UiUser } from "./fixtures/target.ts";
import { addStep, selectStep } from "./fixtures/flow-canvas.ts";
import { expect, test } from "./fixtures/test.ts";

// WhatsApp templates and the 24-hour window in the dashboard (D41-D44), in the "WhatsApp"
// workspace seeded by fixtures/seed.ts: its channel's templates are listed by the global
// setup's local Cloud API. The Channels page lists a channel's templates and syncs them; a
// test message can be a template; a contact's page shows the conversation and the window; the
// flow editor picks a template for a send step, with its parameters and the fallback switch.
// Admins change things, support staff only look. Each page is checked at 1440 px and 390 px
// (no horizontal overflow, no serious or critical axe violation) and photographed.

/** The shared page checks, the screenshot named after this spec. */
const checkLayout = (page: Page, shot: string) => checkPageAtWidths(page, `whatsapp-${shot}`);

// Signing in and loading the pages' scripts is slow on a loaded 2-core machine.
test.beforeEach(() => test.setTimeout(120_000));

const templatesOf = (page: Page, channel: string) =>
  page.getByRole("article", { name: channel }).getByRole("table", { name: `Message templates of ${channel}` });

test.describe("Channels: templates", () => {
  test("an admin sees the templates, syncs them, and sends one as a test message", async ({ page, seed, signIn }) => {
    const { whatsapp } = seed;
    await signIn(whatsapp.admin);
    await page.goto(`/w/${whatsapp.id}/channels`);
    const card = page.getByRole("article", { name: whatsapp.channel });
    const table = templatesOf(page, whatsapp.channel);
    // The seeded copy: two templates, synced two days ago.
    await expect(table.locator("tbody tr")).toHaveCount(2);
    const shipped = table.getByRole("row").filter({ hasText: "order_shipped" });
    await expect(shipped).toContainText("en_US");
    await expect(shipped).toContainText("utility");
    await expect(shipped).toContainText("approved");
    await expect(shipped.getByRole("list", { name: "Parameters of order_shipped" }).getByRole("listitem")).toHaveText(["1", "2"]);
    await expect(shipped).toContainText("Hi {{1}}, your order shipped with {{2}}.");
    await expect(table.getByRole("row").filter({ hasText: "login_code" })).toContainText("authentication");
    const synced = card.locator(".channel-templates-head time");
    const before = await synced.getAttribute("datetime");
    expect(Date.now() - new Date(before!).getTime()).toBeGreaterThan(86_400_000);

    await card.getByRole("button", { name: `Sync templates of ${whatsapp.channel}` }).click();
    await expect(card.getByRole("status").filter({ hasText: "3 templates synced." })).toBeVisible();
    await expect(table.locator("tbody tr")).toHaveCount(3);
    await expect(table.getByRole("row").filter({ hasText: "promo" })).toContainText("pending");
    await expect(synced).not.toHaveAttribute("datetime", before!);

    await page.getByRole("button", { name: `Send a test message with ${whatsapp.channel}` }).click();
    const dialog = page.getByRole("dialog", { name: `Send a test message with “${whatsapp.channel}”` });
    await dialog.getByLabel("Phone number").fill("+1 555 010 7799");
    await dialog.getByRole("radio", { name: "Template" }).check();
    // Only approved templates can be sent.
    const select = dialog.getByRole("combobox", { name: "Template" });
    await expect(select.getByRole("option")).toHaveText(["Choose a template", "order_shipped (en_US)", "login_code (pt_BR)"]);
    await dialog.getByRole("button", { name: "Send test message" }).click();
    await expect(select).toHaveAttribute("aria-invalid", "true");
    await expect(select).toHaveAccessibleDescription(/template\.name/);
    await select.selectOption({ label: "order_shipped (en_US)" });
    await expect(dialog.getByText("Hi {{1}}, your order shipped with {{2}}.")).toBeVisible();
    await dialog.getByLabel("Parameter 1").fill("Ana");
    await dialog.getByLabel("Parameter 2").fill("DHL");
    await dialog.getByRole("button", { name: "Send test message" }).click();
    const answer = dialog.getByRole("region", { name: "Provider's answer" });
    await expect(answer).toContainText("Accepted by the provider");
    await expect(answer).toContainText("+15550107799");
  });

  test("support staff see the templates without the sync and send buttons", async ({ page, seed, signIn }) => {
    const { whatsapp } = seed;
    await signIn(whatsapp.support);
    await page.goto(`/w/${whatsapp.id}/channels`);
    await expect(templatesOf(page, whatsapp.channel).getByRole("row").filter({ hasText: "order_shipped" })).toBeVisible();
    await expect(page.getByRole("button", { name: /Sync templates/ })).toHaveCount(0);
    await expect(page.getByRole("button", { name: /Send a test message/ })).toHaveCount(0);
  });
});

test.describe("Contact page: the conversation and the window", () => {
  for (const role of ["admin", "support"] as const) {
    test(`${role}: the thread oldest first, newest at the bottom, and the window's state`, async ({ page, seed, signIn }) => {
      const { whatsapp } = seed;
      await signIn(whatsapp[role] as UiUser);
      await openContact(page, whatsapp.id, "Wendy Window");
      const section = page.getByRole("region", { name: "WhatsApp conversation" });
      await expect(section.getByLabel("24-hour window")).toContainText(/^Open until .+: free-form messages can be sent\.$/);
      const thread = section.getByRole("list", { name: "Messages, oldest first" });
      await expect(thread.getByRole("listitem")).toHaveCount(3);
      await expect(thread.getByRole("listitem").nth(0)).toContainText("Received: Hi, is my order on its way?");
      await expect(thread.getByRole("listitem").nth(1)).toContainText("Sent: Yes, it ships today.");
      await expect(thread.getByRole("listitem").nth(2)).toContainText("order_shipped");
      await expect(thread.getByRole("listitem").nth(2)).toContainText("Hi Wendy, your order shipped with DHL.");

      await openContact(page, whatsapp.id, "Carl Closed");
      await expect(section.getByLabel("24-hour window")).toContainText("Closed: a template is needed.");
      await expect(section.getByRole("listitem")).toHaveText([/Received: Do you ship to Lisbon\?/]);
    });
  }
});

test.describe("Flow editor: a send step with a template", () => {
  test("an admin picks a template, fills its parameters and switches the fallback on", async ({ page, seed, signIn }) => {
    const { whatsapp } = seed;
    await signIn(whatsapp.admin);
    await page.goto(`/w/${whatsapp.id}/flows/new`);
    await expect(page.getByRole("heading", { level: 1, name: "New flow" })).toBeVisible();
    await page.getByLabel("Name", { exact: true }).fill(`Template flow ${Date.now().toString(36)}`);
    await addStep(page, "Send a message", "at the start");
    const step = page.getByRole("group", { name: "Step 1", exact: true });
    const template = step.getByLabel(/^Template/);
    await expect(template.getByRole("option")).toHaveText(["No template", "order_shipped (en_US)", "login_code (pt_BR)"]);
    await template.selectOption({ label: "order_shipped (en_US)" });
    // A template alone: no free-form message.
    await expect(step.getByLabel("Message", { exact: true })).toHaveCount(0);
    await expect(step.getByText("Hi {{1}}, your order shipped with {{2}}.")).toBeVisible();
    await step.getByLabel("Parameter 1").fill("{{name}}");
    await page.getByRole("button", { name: "Create flow" }).click();
    // The server checks the template's parameters (D42) and points at the empty one.
    await expect(step.getByRole("alert")).toContainText("needs the parameter 2");
    await expect(step.getByLabel("Parameter 2")).toHaveAttribute("aria-invalid", "true");
    await step.getByLabel("Parameter 2").fill("DHL");
    const fallback = step.getByRole("switch", { name: /Fallback/ });
    await fallback.check();
    await step.getByLabel("Message", { exact: true }).fill("Hi {{name}}, any questions about your order?");
    await page.getByRole("button", { name: "Create flow" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Flow created as a draft." })).toBeVisible();

    await page.reload();
    const saved = page.getByRole("group", { name: "Step 1", exact: true });
    await expect(saved.getByLabel(/^Template/)).toHaveValue("order_shipped:en_US");
    await expect(saved.getByLabel("Parameter 1")).toHaveValue("{{name}}");
    await expect(saved.getByLabel("Parameter 2")).toHaveValue("DHL");
    await expect(saved.getByRole("switch", { name: /Fallback/ })).toBeChecked();
    await expect(saved.getByLabel("Message", { exact: true })).toHaveValue("Hi {{name}}, any questions about your order?");
  });

  test("support staff see a step's template and fallback, read-only", async ({ page, seed, signIn }) => {
    const { whatsapp } = seed;
    await signIn(whatsapp.support);
    await page.goto(`/w/${whatsapp.id}/flows/${whatsapp.flowId}`);
    const step = await selectStep(page, "Step 2");
    await expect(step.getByLabel(/^Template/)).toHaveValue("order_shipped:en_US");
    await expect(step.getByLabel(/^Template/)).toBeDisabled();
    await expect(step.getByRole("switch", { name: /Fallback/ })).toBeChecked();
    await expect(step.getByRole("switch", { name: /Fallback/ })).toBeDisabled();
    await expect(step.getByLabel("Parameter 1")).toHaveValue("{{name}}");
  });
});

for (const role of ["admin", "support"] as const) {
  test(`layout at ${WIDTHS.map((w) => w.width).join(" and ")} px as ${role}: channels, contact, flow`, async ({ page, seed, signIn }) => {
    test.setTimeout(180_000);
    const { whatsapp } = seed;
    await signIn(whatsapp[role] as UiUser);
    await page.goto(`/w/${whatsapp.id}/channels`);
    await expect(templatesOf(page, whatsapp.channel)).toBeVisible();
    await checkLayout(page, `channels-${role}`);
    await openContact(page, whatsapp.id, "Wendy Window");
    await expect(page.getByRole("list", { name: "Messages, oldest first" })).toBeVisible();
    await checkLayout(page, `contact-${role}`);
    await page.goto(`/w/${whatsapp.id}/flows/${whatsapp.flowId}`);
    await expect((await selectStep(page, "Step 2")).getByLabel(/^Template/)).toHaveValue("order_shipped:en_US");
    await checkLayout(page, `flow-${role}`);
  });
}
