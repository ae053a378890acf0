import { openContact } from "./fixtures/contacts.ts";
import { checkPageAtWidths } from "./fixtures/page-checks.ts";
import type { UiUser } from "./fixtures/target.ts";
import { expect, test } from "./fixtures/test.ts";

// D91 in the dashboard: a support agent opens a contact's WhatsApp conversation, sees which
// received messages are unread, and marks them read when they say so (opening the page alone
// tells the customer nothing). The receipts go to the global setup's local Cloud API; a
// message shows "read" only once it took them. Checked at 1440 px and 390 px.

test("a support agent marks a contact's received messages read from the conversation", async ({ page, seed, signIn }) => {
  test.setTimeout(180_000);
  const { whatsapp } = seed;
  await signIn(whatsapp.support as UiUser);
  await openContact(page, whatsapp.id, "Rita Read");
  const section = page.getByRole("region", { name: "WhatsApp conversation" });
  const thread = section.getByRole("list", { name: "Messages, oldest first" });
  await expect(thread.getByRole("listitem")).toHaveCount(2);
  await expect(thread.getByRole("listitem").nth(0)).toContainText("Received: Hello, I need help with a return.");
  await expect(thread.getByRole("listitem").nth(0)).toContainText("unread");
  await expect(section.getByRole("status")).toHaveText("2 received messages are unread.");
  const markRead = section.getByRole("button", { name: "Mark as read" });
  await expect(markRead).toBeVisible();
  await checkPageAtWidths(page, "read-receipts-unread");

  await markRead.click();
  await expect(markRead).toHaveCount(0);
  await expect(section.getByRole("status")).toHaveCount(0);
  for (const i of [0, 1]) await expect(thread.getByRole("listitem").nth(i)).toContainText(/· read$/);
  // Read stays read: the page opened again shows no button.
  await page.reload();
  await expect(thread.getByRole("listitem").nth(1)).toContainText("The order number is 4411.");
  await expect(thread.getByRole("listitem").nth(1)).toContainText(/· read$/);
  await expect(section.getByRole("button", { name: "Mark as read" })).toHaveCount(0);
  await checkPageAtWidths(page, "read-receipts-read");
});
