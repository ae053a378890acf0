import type { Page } from "@playwright/test";
import { checkPageAtWidths } from "./fixtures/page-checks.ts";
import { expect, test } from "./fixtures/test.ts";

// The Suppressions page (issue 33, D72): the live list searched by address and reason, the
// message that caused an entry, a removal that says what it means, an address added by hand,
// and support staff reading it only. Seeded in the Messages workspace (fixtures/seed.ts).

const table = (page: Page) => page.getByRole("table", { name: "Suppressed addresses, oldest first" });

async function openSuppressions(page: Page) {
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Suppressions" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Suppressions" })).toBeVisible();
  await expect(table(page)).toBeVisible();
}

test("an admin finds a bounce by address and reason, opens the message that caused it, removes it knowing what that means, and suppresses an address by hand", async ({
  page,
  seed,
  signIn,
}) => {
  const m = seed.messages;
  await signIn(m.admin);
  await openSuppressions(page);
  await checkPageAtWidths(page, "suppressions-admin");

  // The reason filter: only the complaint.
  await page.getByLabel("Reason").selectOption({ label: "Marked as spam" });
  await expect(table(page).getByRole("row")).toHaveCount(2);
  await expect(table(page).getByRole("row", { name: /spam\.reporter@example\.test/ })).toContainText("Marked as spam");
  await page.getByLabel("Reason").selectOption({ label: "Any reason" });

  // Part of the address: the bounce, with the server's reply and the message that caused it.
  await page.getByLabel("Address", { exact: true }).fill("gone.mail");
  const bounce = table(page).getByRole("row", { name: /gone\.mailbox@example\.test/ });
  await expect(table(page).getByRole("row")).toHaveCount(2);
  await expect(bounce).toContainText("Bounced");
  await expect(bounce).toContainText("550 5.1.1 The email account that you tried to reach does not exist");
  await expect(bounce.getByRole("link", { name: m.emailTest })).toHaveAttribute("href", `/w/${m.id}/messages/${m.emailTest}`);

  // Removing says what it means before it happens; Cancel changes nothing.
  await bounce.getByRole("button", { name: "Remove gone.mailbox@example.test…" }).click();
  const dialog = page.getByRole("alertdialog", { name: "Remove gone.mailbox@example.test?" });
  await expect(dialog).toContainText("Live e-mail to this address will be sent again");
  await expect(dialog).toContainText("the next mail bounces too");
  await dialog.getByRole("button", { name: "Remove" }).click();
  await expect(page.getByRole("status").filter({ hasText: "was removed" })).toHaveText(
    "gone.mailbox@example.test was removed: e-mail to it goes out again.",
  );
  await expect(page.getByText("No suppressed address matches.")).toBeVisible();

  // An address by hand (its domain kept in lower case); a wrong one is refused at its field.
  const form = page.getByRole("form", { name: "Suppress an address" });
  await form.getByLabel("Address to suppress").fill("not an address");
  await form.getByRole("button", { name: "Suppress" }).click();
  await expect(form.getByLabel("Address to suppress")).toHaveAttribute("aria-invalid", "true");
  await form.getByLabel("Address to suppress").fill("Hand.Added@Example.test");
  await form.getByRole("button", { name: "Suppress" }).click();
  await expect(form.getByRole("status")).toHaveText("Hand.Added@example.test is suppressed: live e-mail to it is refused.");
  await page.getByLabel("Address", { exact: true }).fill("hand.added");
  await expect(table(page).getByRole("row", { name: /Hand\.Added@example\.test/ })).toContainText("Added by hand");

  // The message link opens the message the bounce came from.
  await page.getByLabel("Address", { exact: true }).fill("spam.reporter");
  await table(page).getByRole("link", { name: m.emailTest }).click();
  await expect(page).toHaveURL(new RegExp(`/messages/${m.emailTest}$`));
});

test("support staff read the list without add or remove", async ({ page, seed, signIn }) => {
  await signIn(seed.messages.support);
  await openSuppressions(page);
  await expect(page.getByText("You have read-only access. Ask an admin to add or remove an address.")).toBeVisible();
  await expect(page.getByRole("form", { name: "Suppress an address" })).toHaveCount(0);
  await expect(table(page).getByRole("row", { name: /do-not-mail@example\.test/ })).toContainText("Added by hand");
  await expect(table(page).getByRole("button", { name: /Remove/ })).toHaveCount(0);
  await checkPageAtWidths(page, "suppressions-support");
});
