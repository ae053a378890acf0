import { contactRows, openContact, searchContacts } from "./fixtures/contacts.ts";
import { checkPageAtWidths } from "./fixtures/page-checks.ts";
import type { UiUser } from "./fixtures/target.ts";
import { expect, test } from "./fixtures/test.ts";

// D88 in the dashboard: a contact WhatsApp knows only by user id and username (its phone
// withheld) is listed by its username, found by its username or user id, and shows both on its
// page, with its conversation.
// Checked at 1440 px and 390 px.

test("a contact known only by WhatsApp user id and username is listed and shown", async ({ page, seed, signIn }) => {
  test.setTimeout(120_000);
  const { whatsapp } = seed;
  await signIn(whatsapp.support as UiUser);
  await page.goto(`/w/${whatsapp.id}/contacts`);
  await expect(contactRows(page).first()).toBeVisible();
  await searchContacts(page, "Sheena");
  const row = contactRows(page).filter({ hasText: "Sheena Nelson" });
  await expect(row).toContainText("WhatsApp @realsheenanelson");
  await checkPageAtWidths(page, "whatsapp-user-ids-list");
  // Found by its username (with its @ or without) and by its whole user id, and by nothing else.
  for (const text of ["@realsheenanelson", "sheenanelson", "US.13491208655302741918"]) {
    await searchContacts(page, text);
    await expect(contactRows(page)).toHaveCount(1);
    await expect(contactRows(page).first()).toContainText("Sheena Nelson");
  }
  await checkPageAtWidths(page, "whatsapp-user-ids-search");

  await openContact(page, whatsapp.id, "Sheena Nelson");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sheena Nelson");
  const details = page.getByRole("region", { name: "Contact details" });
  await expect(details.getByRole("definition").nth(1)).toHaveText("None");
  await expect(details).toContainText("US.13491208655302741918");
  await expect(details).toContainText("@realsheenanelson");
  const thread = page.getByRole("region", { name: "WhatsApp conversation" }).getByRole("list", { name: "Messages, oldest first" });
  await expect(thread.getByRole("listitem")).toHaveCount(1);
  await expect(thread.getByRole("listitem").first()).toContainText("Received: Hi, I saw your shop on WhatsApp.");
  await checkPageAtWidths(page, "whatsapp-user-ids-contact");
});
