import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures/test.ts";

// The tags and custom fields page. Every test creates its own names (two workers share Alpha).

// Users of Alpha seeded for these tests (fixtures/seed.ts), so that sign-ins stay under the
// limit of 10 a minute per e-mail.
const CURATOR = { email: "curator@example.test", password: "curator-password-1" };
const VIEWER = { email: "viewer@example.test", password: "viewer-password-1" };

/** A suffix unique to this test run and call, valid in a custom-field key (a-z, 0-9). */
function unique(): string {
  return `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
}

async function openTagsAndFields(page: Page): Promise<void> {
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Tags & fields" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Tags & fields" })).toBeVisible();
  // The tables are fetched by the page's script: once they show, the forms are live.
  await expect(page.getByRole("table", { name: "Tags of this workspace" })).toBeVisible();
  await expect(page.getByRole("table", { name: "Custom fields of this workspace" })).toBeVisible();
}

const tagForm = (page: Page) => page.getByRole("form", { name: "New tag" });
const fieldForm = (page: Page) => page.getByRole("form", { name: "New custom field" });
const tagsTable = (page: Page) => page.getByRole("table", { name: "Tags of this workspace" });
const fieldsTable = (page: Page) => page.getByRole("table", { name: "Custom fields of this workspace" });

test("an admin creates a tag with a color and sees its swatch; and one without a color", async ({ page, signIn }) => {
  await signIn(CURATOR);
  await openTagsAndFields(page);
  // The seeded tags are listed in creation order.
  await expect(tagsTable(page).getByRole("row", { name: /Seed VIP/ })).toContainText("#ff8800");

  const name = `Tag ${unique()}`;
  const form = tagForm(page);
  await form.getByLabel("Name", { exact: true }).fill(name);
  await form.getByLabel("Color", { exact: true }).fill("#1f9d55");
  await form.getByRole("button", { name: "Create tag" }).click();
  await expect(form.getByRole("status")).toHaveText(`Tag “${name}” created.`);
  await expect(form.getByLabel("Name", { exact: true })).toHaveValue("");

  const row = tagsTable(page).getByRole("row", { name: new RegExp(name) });
  await expect(row).toContainText("#1f9d55");
  await expect(row).toContainText(/tag_\w+/);
  await expect(row.getByRole("img", { name: "Color #1f9d55" })).toHaveCSS("background-color", "rgb(31, 157, 85)");

  const plain = `Plain ${unique()}`;
  await form.getByLabel("Name", { exact: true }).fill(plain);
  await form.getByLabel("No color", { exact: true }).check();
  await expect(form.getByLabel("Color", { exact: true })).toBeDisabled();
  await form.getByRole("button", { name: "Create tag" }).click();
  const plainRow = tagsTable(page).getByRole("row", { name: new RegExp(plain) });
  await expect(plainRow.getByRole("img", { name: "No color" })).toBeVisible();
  await expect(plainRow).toContainText("None");

  // Still there after a reload: it is stored, not only in the page.
  await page.reload();
  await expect(row.getByRole("img", { name: "Color #1f9d55" })).toBeVisible();
});

test("a tag name that exists in another case shows the conflict at the name field (D11)", async ({ page, signIn }) => {
  await signIn(CURATOR);
  await openTagsAndFields(page);
  const name = `Dup ${unique()}`;
  const form = tagForm(page);
  await form.getByLabel("Name", { exact: true }).fill(name);
  await form.getByRole("button", { name: "Create tag" }).click();
  await expect(tagsTable(page).getByRole("row", { name: new RegExp(name) })).toBeVisible();

  await form.getByLabel("Name", { exact: true }).fill(`  ${name.toUpperCase()} `);
  await form.getByRole("button", { name: "Create tag" }).click();
  const field = form.getByLabel("Name", { exact: true });
  await expect(field).toHaveAttribute("aria-invalid", "true");
  await expect(field).toHaveAccessibleDescription(`A tag named "${name.toUpperCase()}" already exists.`);
  await expect(field).toBeFocused();
  await expect(tagsTable(page).getByRole("row", { name: new RegExp(name, "i") })).toHaveCount(1);

  // An empty name: the schema's error, at the same field.
  await field.fill("   ");
  await form.getByRole("button", { name: "Create tag" }).click();
  await expect(field).toHaveAccessibleDescription("name: must not be empty");
});

test("an admin creates a custom field and sees its {{key}} placeholder", async ({ page, signIn }) => {
  await signIn(CURATOR);
  await openTagsAndFields(page);
  await expect(fieldsTable(page).getByRole("row", { name: /^Plan / })).toContainText("{{plan}}");

  const suffix = unique();
  const form = fieldForm(page);
  await form.getByLabel("Name", { exact: true }).fill(`Loyalty ${suffix}`);
  await form.getByLabel("Key", { exact: true }).fill(`loyalty_${suffix}`);
  await form.getByLabel("Type", { exact: true }).selectOption("number");
  await form.getByRole("button", { name: "Create field" }).click();
  await expect(form.getByRole("status")).toContainText(`{{loyalty_${suffix}}}`);

  const row = fieldsTable(page).getByRole("row", { name: new RegExp(`Loyalty ${suffix}`) });
  await expect(row.locator("code")).toHaveText(`{{loyalty_${suffix}}}`);
  await expect(row).toContainText("Number");
  await expect(form.getByLabel("Key", { exact: true })).toHaveValue("");
});

test("an invalid, reserved or existing key shows the error at the key field (D4, D11)", async ({ page, signIn }) => {
  await signIn(CURATOR);
  await openTagsAndFields(page);
  const form = fieldForm(page);
  const key = form.getByLabel("Key", { exact: true });
  const name = `Broken ${unique()}`;
  await form.getByLabel("Name", { exact: true }).fill(name);
  await key.fill("Bad Key");
  await form.getByRole("button", { name: "Create field" }).click();
  await expect(key).toHaveAttribute("aria-invalid", "true");
  await expect(key).toHaveAccessibleDescription(/^a-z, 0-9 and _.*key: must start with a-z/);
  await expect(key).toBeFocused();

  await key.fill("email");
  await form.getByRole("button", { name: "Create field" }).click();
  await expect(key).toHaveAccessibleDescription(/key: is a built-in variable/);

  await key.fill("plan");
  await form.getByRole("button", { name: "Create field" }).click();
  await expect(key).toHaveAccessibleDescription(/A custom field with key "plan" already exists\./);
  await expect(form.getByLabel("Name", { exact: true })).not.toHaveAttribute("aria-invalid");

  await page.reload();
  await expect(fieldsTable(page).getByRole("row", { name: /^Plan / })).toBeVisible();
  await expect(fieldsTable(page).getByRole("row", { name: new RegExp(name) })).toHaveCount(0);
});

test("a support user sees tags and fields read-only", async ({ page, signIn }) => {
  await signIn(VIEWER);
  await openTagsAndFields(page);
  await expect(page.getByText("You have read-only access")).toBeVisible();
  await expect(tagsTable(page).getByRole("row", { name: /Seed VIP/ })).toBeVisible();
  await expect(fieldsTable(page).getByRole("row", { name: /^Plan / })).toBeVisible();
  await expect(tagForm(page)).toHaveCount(0);
  await expect(fieldForm(page)).toHaveCount(0);
  await expect(page.getByRole("button", { name: /Create/ })).toHaveCount(0);
  await expect(page.getByRole("textbox")).toHaveCount(0);
});
