import { checkPageAtWidths, WIDTHS } from "./fixtures/page-checks.ts";
import { expect, test } from "./fixtures/test.ts";

// In order, in one worker: the first test reads the newest entries, which the others add to.
test.describe.configure({ mode: "default" });

// The Audit log page (issue 15 "Team and audit"): an admin's team changes appear with who made
// them, in plain words, linked to their target, with relative and absolute times; filters by
// action and by actor; pages; support staff cannot reach it. Then the page at 1440 px and 390 px.

test("an admin's team changes appear in the audit log, with filters and pages", async ({ page, seed, signIn }) => {
  test.setTimeout(120_000);
  const { audit } = seed;
  await signIn(audit.admin);
  await page.goto(`/w/${audit.id}/team`);
  await page.getByRole("button", { name: "Change role of Mo Member" }).click();
  const role = page.getByRole("dialog", { name: "Change the role of Mo Member" });
  await role.getByLabel("Admin").check();
  await role.getByRole("button", { name: "Save role" }).click();
  await expect(role).toBeHidden();
  await page.getByRole("button", { name: "Reset password of Mo Member" }).click();
  await page.getByRole("alertdialog", { name: "Reset the password of Mo Member?" }).getByRole("button", { name: "Reset password" }).click();
  await page.getByRole("dialog", { name: "Password reset" }).getByRole("button", { name: "Done" }).click();
  // Back to support, so a second run finds the seed as it was.
  await page.getByRole("button", { name: "Change role of Mo Member" }).click();
  await role.getByLabel("Support").check();
  await role.getByRole("button", { name: "Save role" }).click();
  await expect(role).toBeHidden();

  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Audit log" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Audit log" })).toBeVisible();
  const table = page.getByRole("table", { name: "Changes to this workspace, newest first" });
  const rows = table.locator("tbody tr");
  // Newest first: the role back to support, the reset, the role to admin.
  await expect(rows.nth(0)).toContainText("Changed a team member's role");
  await expect(rows.nth(0)).toContainText("admin → support");
  await expect(rows.nth(1)).toContainText("Reset a team member's password");
  await expect(rows.nth(2)).toContainText("support → admin");
  for (const i of [0, 1, 2]) {
    await expect(rows.nth(i)).toContainText("Aud Admin");
    await expect(rows.nth(i).getByRole("link", { name: "audit-member@example.test" })).toHaveAttribute("href", `/w/${audit.id}/team`);
  }
  // Relative time, and the absolute one beside it.
  const time = rows.nth(0).locator("time");
  await expect(time).toContainText(/now|second|minute/);
  expect(await time.getAttribute("datetime")).toMatch(/^\d{4}-\d\d-\d\dT/);

  // By action.
  await page.getByLabel("Action").selectOption({ label: "Reset a team member's password" });
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("Reset a team member's password");

  // By actor: the operator's changes (the seed's workspace, members and 30 keys) in pages of 25.
  await page.getByLabel("Action").selectOption({ label: "All actions" });
  await page.getByLabel("Actor").selectOption({ label: "Operator (command line)" });
  // The unfiltered page had 25 rows too: wait for the filtered answer, not for a count.
  await expect(rows.filter({ hasNotText: "Operator (command line)" })).toHaveCount(0);
  await expect(rows).toHaveCount(25);
  // A row is told by what it says past its time: the relative time ("57 seconds ago") moves on.
  const described = (row: typeof rows) => row.locator(":scope > :not(:first-child)");
  const first = await described(rows.first()).allTextContents();
  const pager = page.getByRole("navigation", { name: "Pages of the audit log" });
  await pager.getByRole("button", { name: "Next page" }).click();
  await expect(pager).toContainText("Page 2");
  await expect(described(rows.first())).not.toHaveText(first);
  await expect(rows.last()).toContainText("Created the workspace");
  await expect(pager.getByRole("button", { name: "Next page" })).toBeDisabled();
  await pager.getByRole("button", { name: "Previous page" }).click();
  await expect(described(rows.first())).toHaveText(first);

  // Both filters: nobody but the admin changed roles.
  await page.getByLabel("Actor").selectOption({ label: "Aud Admin (audit-admin@example.test)" });
  await page.getByLabel("Action").selectOption({ label: "Changed a team member's role" });
  await expect(rows.filter({ hasNotText: "Changed a team member's role" })).toHaveCount(0);
  await expect(rows.first()).toContainText("Aud Admin");
  await expect(rows.filter({ hasNotText: "Aud Admin" })).toHaveCount(0);
});

test("an API key made in the dashboard is in the audit log, linked to the keys", async ({ page, seed, signIn }) => {
  test.setTimeout(120_000);
  const { audit } = seed;
  await signIn(audit.admin);
  const name = `Audited UI key ${Date.now()}`;
  await page.getByRole("button", { name: "Create API key" }).click();
  const form = page.getByRole("dialog", { name: "Create API key" });
  await form.getByLabel("Name").fill(name);
  await form.getByRole("button", { name: "Create key" }).click();
  await page.getByRole("dialog", { name: "API key created" }).getByRole("button", { name: "Done" }).click();
  await page.goto(`/w/${audit.id}/audit`);
  await page.getByLabel("Action").selectOption({ label: "Created an API key" });
  await page.getByLabel("Actor").selectOption({ label: "Aud Admin (audit-admin@example.test)" });
  const link = page.getByRole("table").getByRole("link", { name });
  await expect(link).toHaveAttribute("href", `/w/${audit.id}/keys`);
});

test("support staff see no Audit log link and cannot reach the page", async ({ page, seed, signIn }) => {
  test.setTimeout(120_000);
  await signIn(seed.audit.support);
  await expect(page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Audit log" })).toHaveCount(0);
  await page.goto(`/w/${seed.audit.id}/audit`);
  await expect(page.getByRole("main").getByRole("alert")).toHaveText(/Only admins of this workspace can see the audit log/);
  await expect(page.getByRole("table")).toHaveCount(0);
  const input = encodeURIComponent(JSON.stringify({}));
  const res = await page.request.get(`/api/trpc/audit.list?input=${input}`, { headers: { "x-svc-workspace": seed.audit.id } });
  expect(res.status()).toBe(403);
});

for (const role of ["admin", "support"] as const) {
  test(`the Audit log as ${role} at ${WIDTHS.map((w) => w.width).join(" and ")} px: no overflow, no serious axe violation, screenshots`, async ({
    page,
    seed,
    signIn,
  }) => {
    test.setTimeout(120_000);
    await signIn(seed.audit[role]);
    await page.goto(`/w/${seed.audit.id}/audit`);
    if (role === "admin") await expect(page.getByRole("table", { name: "Changes to this workspace, newest first" })).toBeVisible();
    await checkPageAtWidths(page, `${role}-audit`);
  });
}
