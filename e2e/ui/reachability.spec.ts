import { openContact } from "./fixtures/contacts.ts";
import { checkPageAtWidths } from "./fixtures/page-checks.ts";
import { expect, test } from "./fixtures/test.ts";

// "Reachable now?" on a contact's page (D71), in the "Reach" workspace seeded by
// fixtures/seed.ts: Rita wrote on WhatsApp an hour ago (her window is open) and her e-mail
// address is on the suppression list; the workspace has no SMS channel. The panel says WhatsApp
// is reachable and why e-mail and SMS are not, in words, with the window's closing time; the page is checked at 1440 px and 390 px (no
// horizontal overflow, no serious or critical axe violation) and photographed. A journey picked in
// the panel adds that journey's quiet hours.

// Signing in and loading the pages' scripts is slow on a loaded 2-core machine.
test.beforeEach(() => test.setTimeout(120_000));

test("a contact's page says WhatsApp is reachable and why e-mail and SMS are not", async ({ page, seed, signIn }) => {
  const { reach } = seed;
  await signIn(reach.admin);
  await openContact(page, reach.id, reach.contactName);
  const panel = page.getByRole("region", { name: "Reachable now?" });
  const whatsapp = panel.getByRole("region", { name: /^WhatsApp/ });
  const email = panel.getByRole("region", { name: /^E-mail/ });
  await expect(whatsapp.getByRole("heading")).toHaveText("WhatsApp Reachable");
  await expect(whatsapp).toContainText("A message would go out now.");
  await expect(whatsapp.getByRole("definition").first()).toContainText(/^Open, closes /);
  await expect(whatsapp.locator("time")).toHaveAttribute("datetime", /T/);
  await expect(email.getByRole("heading")).toHaveText("E-mail Not reachable");
  await expect(email.getByRole("listitem")).toHaveText([
    "The address is on the suppression list (a hard bounce, a spam complaint, or added by hand).",
  ]);
  const sms = panel.getByRole("region", { name: /^SMS/ });
  await expect(sms.getByRole("heading")).toHaveText("SMS Not reachable");
  await expect(sms.getByRole("listitem")).toHaveText(["No SMS channel is connected, or it is paused."]);
  await expect(panel.getByRole("region", { name: "Local time" })).toContainText("Quiet hours");
  await checkPageAtWidths(page, "reachability-contact");
});

// With a journey chosen (the flow_id of GET /contacts/{id}/reachability), its quiet hours count:
// Rita is in "Evening digest", whose quiet hours hold now in her zone (UTC, the workspace's), so
// its message would wait until they end; "Reach newsletter" has none.
test("the panel asks for one journey: the one she is in holds its message for its quiet hours, another does not", async ({
  page,
  seed,
  signIn,
}) => {
  const { reach } = seed;
  await signIn(reach.admin);
  await openContact(page, reach.id, reach.contactName);
  const panel = page.getByRole("region", { name: "Reachable now?" });
  const picker = panel.getByLabel("For a journey", { exact: true });
  const local = panel.getByRole("region", { name: "Local time" });
  const whatsapp = panel.getByRole("region", { name: /^WhatsApp/ });
  await expect(picker).toHaveValue("");
  await expect(local).toContainText("Not checked: choose a journey above");
  // Her journeys first, then the others.
  await expect(picker.locator("optgroup")).toHaveCount(2);
  await expect(picker.locator('optgroup[label="Journeys this contact is in"] option')).toHaveText([reach.quietFlow]);
  await expect(picker.locator('optgroup[label="Other journeys"] option')).toContainText([reach.otherFlow]);

  await picker.selectOption({ label: reach.quietFlow });
  await expect(local.getByRole("definition").nth(0)).toHaveText("UTC");
  await expect(local.getByRole("definition").nth(1)).toContainText(/^Active until /);
  const until = await local.locator("time").getAttribute("datetime");
  // The hours end about 22 hours after the seed began them (an hour before it ran): later than now, within a day.
  const hoursLeft = (new Date(until!).getTime() - Date.now()) / 3_600_000;
  expect(hoursLeft).toBeGreaterThan(0);
  expect(hoursLeft).toBeLessThanOrEqual(22);
  await expect(whatsapp.getByRole("heading")).toHaveText("WhatsApp Reachable");
  await expect(whatsapp).toContainText("The journey's message would wait for its quiet hours to end, at");
  await expect(whatsapp.locator("p time")).toHaveAttribute("datetime", until!);
  await checkPageAtWidths(page, "reachability-journey");

  await picker.selectOption({ label: reach.otherFlow });
  await expect(local.getByRole("definition").nth(1)).toHaveText("Not active now for this journey.");
  await expect(whatsapp).toContainText("A message would go out now.");
});
