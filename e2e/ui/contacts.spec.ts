import type { Page } from "@playwright/test";
import { contactRows, openListedContact, searchContacts as search } from "./fixtures/contacts.ts";
import { expect, test } from "./fixtures/test.ts";

// The contacts pages (list, search, detail, edit, new) on the contacts seeded in Alpha by
// fixtures/seed.ts. Tests that change a contact each have their own, so they run in any order.

// Users of Alpha seeded for these tests (fixtures/seed.ts): sign-in allows 10 attempts a minute
// per e-mail, more than this file and the other specs together would make as one user.
const LISTS = { email: "lists@example.test", password: "lists-password-1" };
const EDITOR = { email: "editor@example.test", password: "editor-password-1" };
const VIEWER = { email: "viewer@example.test", password: "viewer-password-1" };

/** Opens the contacts page of the user's first workspace from the left navigation. */
async function openContacts(page: Page): Promise<void> {
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Contacts" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Contacts" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Contacts" })).toHaveAttribute("aria-current", "page");
  // The table is fetched by the page's script: once it shows, the search form is live.
  await expect(contactRows(page).first()).toBeVisible();
}

async function openContact(page: Page, name: string): Promise<void> {
  await openContacts(page);
  await openListedContact(page, name);
}

const details = (page: Page) => page.getByRole("region", { name: "Contact details" });
const historyRows = (page: Page) => page.getByRole("table", { name: "Events of this contact, newest first" }).locator("tbody tr");
const fieldRow = (page: Page, name: string) =>
  page.getByRole("table", { name: "Custom field values of this contact" }).getByRole("row", { name: new RegExp(`^${name} `) });

const PAGER_NAMES = Array.from({ length: 30 }, (_, i) => `Pager Person ${String(i + 1).padStart(2, "0")}`);
const rowNames = (page: Page) => contactRows(page).locator("th").allTextContents();

test("search finds contacts by name, phone and e-mail", async ({ page, signIn }) => {
  await signIn(LISTS);
  await openContacts(page);
  const rows = contactRows(page);

  // By name, case-insensitively: 30 match, 25 to a page.
  await search(page, "pager person");
  await expect(rows).toHaveCount(25);
  for (const name of await rowNames(page)) expect(PAGER_NAMES).toContain(name);
  await expect(page.getByRole("button", { name: "Next page" })).toBeEnabled();

  // By phone, in any notation: only the digits count.
  await search(page, "+1 (555) 010-2007");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("Pager Person 07");
  await expect(rows.first()).toContainText("+15550102007");
  await expect(page.getByRole("navigation", { name: "Pages of contacts" })).toHaveCount(0);

  // By e-mail.
  await search(page, "PAGER.12@example");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("Pager Person 12");
  await expect(rows.first()).toContainText("pager.12@example.test");

  // Typing alone searches too, once the typing pauses.
  await page.getByRole("searchbox", { name: "Search contacts" }).fill("Dora Det");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("Dora Detail");

  await search(page, "nobody-by-this-name");
  await expect(page.getByText("No contacts match “nobody-by-this-name”.")).toBeVisible();
});

test("Next page and Previous page move through the contact list", async ({ page, signIn }) => {
  await signIn(LISTS);
  await openContacts(page);
  const rows = contactRows(page);
  const next = page.getByRole("button", { name: "Next page" });
  const previous = page.getByRole("button", { name: "Previous page" });

  // In creation order: the 30 seeded Pager People come first, then the others.
  await expect(rows).toHaveCount(25);
  await expect(page.getByText("Page 1", { exact: true })).toBeVisible();
  await expect(previous).toBeDisabled();
  const first = await rowNames(page);
  for (const name of first) expect(PAGER_NAMES).toContain(name);

  await next.click();
  await expect(page.getByText("Page 2", { exact: true })).toBeVisible();
  await expect(rows.filter({ hasText: "Dora Detail" })).toHaveCount(1);
  const second = await rowNames(page);
  expect(second.filter((name) => first.includes(name))).toEqual([]);
  expect([...first, ...second.filter((name) => name.startsWith("Pager Person"))].sort()).toEqual(PAGER_NAMES);
  await expect(previous).toBeEnabled();

  await previous.click();
  await expect(page.getByText("Page 1", { exact: true })).toBeVisible();
  await expect(previous).toBeDisabled();
  await expect.poll(() => rowNames(page)).toEqual(first);

  // A new search starts again at the first page.
  await next.click();
  await expect(page.getByText("Page 2", { exact: true })).toBeVisible();
  await search(page, "Pager Person 1");
  await expect(rows).toHaveCount(10);
  await expect(page.getByRole("navigation", { name: "Pages of contacts" })).toHaveCount(0);
});

test("the pages after the first keep the search", async ({ page, signIn }) => {
  await signIn(LISTS);
  await openContacts(page);
  const rows = contactRows(page);
  await search(page, "pager person");
  await expect(rows).toHaveCount(25);
  const first = await rowNames(page);
  await page.getByRole("button", { name: "Next page" }).click();
  await expect(page.getByText("Page 2", { exact: true })).toBeVisible();
  await expect(rows).toHaveCount(5, { timeout: 3_000 });
  expect([...first, ...(await rowNames(page))].sort()).toEqual(PAGER_NAMES);
  await expect(page.getByRole("button", { name: "Next page" })).toBeDisabled();
});

test("the list shows tags as colored chips and opt-outs", async ({ page, signIn }) => {
  await signIn(LISTS);
  await openContacts(page);
  await search(page, "Dora Detail");
  const row = contactRows(page).filter({ hasText: "Dora Detail" });
  await expect(row).toContainText("+15550103001");
  await expect(row).toContainText("dora.detail@example.test");
  const chips = row.getByRole("list", { name: "Tags" }).getByRole("listitem");
  await expect(chips).toHaveCount(2);
  // A contact's tags come in id order, so the two chips may come in either order.
  expect((await chips.allInnerTexts()).sort()).toEqual(["Seed Lead", "Seed VIP"]);
  await expect(chips.filter({ hasText: "Seed VIP" })).toHaveCSS("border-color", "rgb(255, 136, 0)");
  await expect(row.getByRole("list", { name: "Opted out of" })).toHaveText("E-mail");
});

test("a contact's page shows its values, custom fields, tags and history", async ({ page, signIn }) => {
  await signIn(EDITOR);
  await openContact(page, "Dora Detail");

  const panel = details(page);
  await expect(panel).toContainText("+15550103001");
  await expect(panel).toContainText("dora.detail@example.test");
  await expect(panel.getByRole("list", { name: "Tags" }).getByRole("listitem")).toHaveCount(2);
  await expect(panel.getByRole("list", { name: "Tags" })).toContainText("Seed VIP");
  await expect(panel.getByRole("list", { name: "Tags" })).toContainText("Seed Lead");
  await expect(panel.getByRole("list", { name: "Opted out of" })).toHaveText("E-mail");
  await expect(panel.locator("time")).toHaveCount(2);

  await expect(fieldRow(page, "Plan")).toContainText("{{plan}}");
  await expect(fieldRow(page, "Plan")).toContainText("gold");
  await expect(fieldRow(page, "Visits")).toContainText("8");
  await expect(fieldRow(page, "Renewal")).toContainText("2025-03-01");
  await expect(fieldRow(page, "Newsletter")).toContainText("Yes");

  // Newest first: the seed's update, then the creation.
  const history = historyRows(page);
  await expect(history).toHaveCount(2);
  await expect(history.nth(0)).toContainText("contato.atualizado");
  await expect(history.nth(1)).toContainText("contato.criado");
  await expect(history.nth(0)).toContainText("live");
  const data = history.nth(0).locator("pre");
  await expect(data).toBeHidden();
  await history.nth(0).getByText("Show data").click();
  await expect(data).toBeVisible();
  const json = JSON.parse(await data.innerText()) as { name: string; fields: Record<string, unknown> };
  expect(json).toMatchObject({ name: "Dora Detail", fields: { plan: "gold", visits: 8 } });
});

test("an admin edits a contact's name, tags and a custom field; the history records it", async ({ page, signIn }) => {
  await signIn(EDITOR);
  await openContact(page, "Eddie Edit");
  await expect(historyRows(page)).toHaveCount(1);
  await expect(fieldRow(page, "Plan")).toContainText("silver");

  const name = `Eddie Edited ${Date.now()}`;
  await page.getByRole("button", { name: "Edit" }).click();
  const form = page.getByRole("region", { name: "Edit contact" });
  await expect(form.getByLabel("Name", { exact: true })).toHaveValue("Eddie Edit");
  await expect(form.getByLabel("Phone", { exact: true })).toHaveValue("+15550103002");
  const tags = form.getByRole("group", { name: "Tags" });
  await expect(tags.getByLabel("Seed Lead", { exact: true })).toBeChecked();
  await expect(tags.getByLabel("Seed VIP", { exact: true })).not.toBeChecked();
  await form.getByLabel("Name", { exact: true }).fill(name);
  await tags.getByLabel("Seed VIP", { exact: true }).check();
  await tags.getByLabel("Seed Lead", { exact: true }).uncheck();
  await form.getByLabel("Plan", { exact: true }).fill("platinum");
  await form.getByLabel("Visits", { exact: true }).fill("12");
  await form.getByLabel("Renewal", { exact: true }).fill("2026-01-31");
  await form.getByLabel("Newsletter", { exact: true }).check();
  await form.getByRole("button", { name: "Save changes" }).click();

  await expect(page.getByRole("status").filter({ hasText: "Contact saved." })).toBeVisible();
  await expect(form).toHaveCount(0);
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await expect(details(page).getByRole("list", { name: "Tags" })).toHaveText("Seed VIP");
  await expect(fieldRow(page, "Plan")).toContainText("platinum");
  await expect(fieldRow(page, "Visits")).toContainText("12");
  await expect(fieldRow(page, "Renewal")).toContainText("2026-01-31");
  await expect(fieldRow(page, "Newsletter")).toContainText("Yes");

  const history = historyRows(page);
  await expect(history).toHaveCount(2);
  await expect(history.nth(0)).toContainText("contato.atualizado");
  await history.nth(0).getByText("Show data").click();
  const event = JSON.parse(await history.nth(0).locator("pre").innerText()) as { name: string; tags: string[]; fields: object };
  expect(event.name).toBe(name);
  expect(event.tags).toHaveLength(1);
  expect(event.fields).toEqual({ plan: "platinum", visits: 12, renewal: "2026-01-31", newsletter: true });

  // An emptied input removes the value; an unchanged form changes nothing.
  await page.getByRole("button", { name: "Edit" }).click();
  await form.getByLabel("Plan", { exact: true }).fill("");
  await form.getByRole("button", { name: "Save changes" }).click();
  await expect(form).toHaveCount(0);
  await expect(fieldRow(page, "Plan")).toContainText("Not set");
  await expect(history).toHaveCount(3);
  await page.getByRole("button", { name: "Edit" }).click();
  await form.getByRole("button", { name: "Save changes" }).click();
  await expect(form).toHaveCount(0);
  await page.reload();
  await expect(fieldRow(page, "Plan")).toContainText("Not set");
  await expect(fieldRow(page, "Visits")).toContainText("12");
  await expect(history).toHaveCount(3);

  // The list shows the new name.
  await openContacts(page);
  await search(page, name);
  await expect(contactRows(page)).toHaveCount(1);
});

test("an invalid value shows the server's error at its field and changes nothing", async ({ page, signIn }) => {
  await signIn(EDITOR);
  await openContact(page, "Ivy Invalid");
  await expect(historyRows(page)).toHaveCount(1);

  await page.getByRole("button", { name: "Edit" }).click();
  const form = page.getByRole("region", { name: "Edit contact" });
  await form.getByLabel("Name", { exact: true }).fill("Ivy Should Not Change");
  await form.getByLabel("E-mail", { exact: true }).fill("not-an-e-mail");
  await form.getByRole("button", { name: "Save changes" }).click();
  const email = form.getByLabel("E-mail", { exact: true });
  await expect(email).toHaveAttribute("aria-invalid", "true");
  await expect(email).toHaveAccessibleDescription("email is not a valid e-mail address.");
  await expect(email).toBeFocused();
  await expect(form.getByLabel("Name", { exact: true })).not.toHaveAttribute("aria-invalid");
  await expect(form.getByRole("alert")).toHaveCount(0);

  // A phone the server refuses, after the e-mail is fixed: the error moves to the phone.
  await email.fill("ivy.invalid@example.test");
  await form.getByLabel("Phone", { exact: true }).fill("12345");
  await form.getByRole("button", { name: "Save changes" }).click();
  await expect(form.getByLabel("Phone", { exact: true })).toHaveAccessibleDescription(/^phone /);
  await expect(email).not.toHaveAttribute("aria-invalid");

  await form.getByRole("button", { name: "Cancel" }).click();
  await expect(form).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole("heading", { level: 1, name: "Ivy Invalid" })).toBeVisible();
  await expect(details(page)).toContainText("ivy.invalid@example.test");
  await expect(details(page)).toContainText("+15550103003");
  await expect(historyRows(page)).toHaveCount(1);
});

test("an admin adds a contact with the New contact form", async ({ page, signIn }) => {
  await signIn(EDITOR);
  await openContacts(page);
  const stamp = Date.now();
  const name = `Nina New ${stamp}`;
  const phone = `+1 555 010 ${String(5000 + (stamp % 4000)).padStart(4, "0")}`;

  await page.getByRole("button", { name: "New contact" }).click();
  const dialog = page.getByRole("dialog", { name: "New contact" });
  // Neither phone nor e-mail: the server's error at the phone field (D14).
  await dialog.getByLabel("Name", { exact: true }).fill(name);
  await dialog.getByRole("button", { name: "Create contact" }).click();
  await expect(dialog.getByLabel("Phone", { exact: true })).toHaveAccessibleDescription(
    "Give at least `phone`, `email` or `whatsapp_user_id`.",
  );

  await dialog.getByLabel("Phone", { exact: true }).fill(phone);
  await dialog.getByLabel("E-mail", { exact: true }).fill(`nina.${stamp}@Example.TEST`);
  await dialog.getByRole("group", { name: "Tags" }).getByLabel("Seed Plain", { exact: true }).check();
  await dialog.getByLabel("Visits", { exact: true }).fill("3");
  await dialog.getByLabel("Opted out of WhatsApp", { exact: true }).check();
  await dialog.getByRole("button", { name: "Create contact" }).click();

  await expect(page).toHaveURL(/\/contacts\/ct_[^/]+$/);
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await expect(details(page)).toContainText(phone.replace(/ /g, ""));
  await expect(details(page)).toContainText(`nina.${stamp}@example.test`);
  await expect(details(page).getByRole("list", { name: "Tags" })).toHaveText("Seed Plain");
  await expect(details(page).getByRole("list", { name: "Opted out of" })).toHaveText("WhatsApp");
  await expect(fieldRow(page, "Visits")).toContainText("3");
  await expect(fieldRow(page, "Plan")).toContainText("Not set");
  await expect(historyRows(page)).toHaveCount(1);
  await expect(historyRows(page).first()).toContainText("contato.criado");
});

test("an admin opts a contact out of SMS as of the other channels; it is saved, and support staff see it", async ({ page, signIn }) => {
  await signIn(EDITOR);
  await openContacts(page);
  const stamp = Date.now();
  const name = `Sami SMS ${stamp}`;
  await page.getByRole("button", { name: "New contact" }).click();
  const dialog = page.getByRole("dialog", { name: "New contact" });
  await dialog.getByLabel("Name", { exact: true }).fill(name);
  await dialog.getByLabel("Phone", { exact: true }).fill(`+55 21 98${String(stamp % 10_000_000).padStart(7, "0")}`);
  // Every channel of the registry has its opt-out (D38), SMS's included (issue 49).
  const optOuts = dialog.getByRole("group", { name: "Opt-outs" });
  await expect(optOuts.getByRole("checkbox")).toHaveCount(3);
  await dialog.getByRole("button", { name: "Create contact" }).click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await expect(details(page).getByRole("list", { name: "Opted out of" })).toHaveCount(0);

  await page.getByRole("button", { name: "Edit" }).click();
  const form = page.getByRole("region", { name: "Edit contact" });
  await expect(form.getByLabel("Opted out of SMS", { exact: true })).not.toBeChecked();
  await form.getByLabel("Opted out of SMS", { exact: true }).check();
  await form.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Contact saved." })).toBeVisible();

  // Saved: the page read again from the server shows it.
  await page.reload();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await expect(details(page).getByRole("list", { name: "Opted out of" })).toHaveText("SMS");
  await expect(page.getByText("Opted out of SMS: sends to this contact on that channel are refused, and flows skip them.")).toBeVisible();
  await expect(historyRows(page).first()).toContainText("Opted out of SMS.");
  await page.getByRole("button", { name: "Edit" }).click();
  await expect(form.getByLabel("Opted out of SMS", { exact: true })).toBeChecked();
  await expect(form.getByLabel("Opted out of WhatsApp", { exact: true })).not.toBeChecked();
  await form.getByRole("button", { name: "Cancel" }).click();

  // The list shows it too, and a support user sees it read-only.
  await openContacts(page);
  await search(page, name);
  await expect(contactRows(page).getByRole("list", { name: "Opted out of" })).toHaveText("SMS");
  await page.context().clearCookies();
  await signIn(VIEWER);
  await openContact(page, name);
  await expect(details(page).getByRole("list", { name: "Opted out of" })).toHaveText("SMS");
  await expect(page.getByRole("button", { name: "Edit" })).toHaveCount(0);
});

test("a support user sees contacts read-only", async ({ page, seed, signIn }) => {
  await signIn(VIEWER);
  await openContacts(page);
  await expect(page.getByText("You have read-only access")).toBeVisible();
  await expect(page.getByRole("button", { name: "New contact" })).toHaveCount(0);

  await openListedContact(page, "Dora Detail");
  await expect(fieldRow(page, "Plan")).toContainText("gold");
  await expect(historyRows(page)).toHaveCount(2);
  await expect(page.getByRole("button", { name: "Edit" })).toHaveCount(0);
  await expect(page.getByRole("textbox")).toHaveCount(0);

  // The server refuses a support user's edit as well.
  const id = page.url().split("/").pop()!;
  const response = await page.request.post("/api/trpc/contacts.update", {
    headers: { "x-svc-workspace": seed.alpha.id, "content-type": "application/json" },
    data: { id, name: "Sneaky" },
  });
  expect(response.ok()).toBe(false);
  const body = (await response.json()) as { error: { data: { type?: string } } };
  expect(body.error.data.type).toBe("forbidden");
  await page.reload();
  await expect(page.getByRole("heading", { level: 1, name: "Dora Detail" })).toBeVisible();
});

test("an unknown contact id is not found", async ({ page, seed, signIn }) => {
  await signIn(EDITOR);
  const response = await page.goto(`/w/${seed.alpha.id}/contacts/ct_doesnotexist`);
  expect(response?.status()).toBe(404);
});
