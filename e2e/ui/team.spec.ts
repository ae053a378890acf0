import { uiTarget } from "./fixtures/target.ts";
import { checkPageAtWidths, WIDTHS } from "./fixtures/page-checks.ts";
import { expect, signIn as signInPage, test } from "./fixtures/test.ts";

// In order, in one worker: the first test changes the team that the others look at.
test.describe.configure({ mode: "default" });

// The Team page (issue 15 "Team and audit"): an admin adds a person, changes a role, cannot
// remove the workspace's last admin, and resets a password that then signs in; support staff
// neither see the page in the menu nor reach it. Then the page at 1440 px and 390 px.

test("an admin adds a member, changes a role, cannot remove the last admin, and resets a password that signs in", async ({
  page,
  browser,
  seed,
  signIn,
}) => {
  test.setTimeout(120_000);
  const { team } = seed;
  await signIn(team.admin);
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Team" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Team" })).toBeVisible();
  const table = page.getByRole("table", { name: "Members of this workspace" });
  await expect(table.getByRole("row", { name: /Tia Team/ })).toContainText("Admin");

  // The last admin cannot be removed, nor demoted: the dialog says why and nothing changes.
  const removeSelf = page.getByRole("button", { name: "Remove Tia Team" });
  await removeSelf.click();
  const confirm = page.getByRole("alertdialog", { name: "Remove Tia Team?" });
  await confirm.getByRole("button", { name: "Remove member" }).click();
  await expect(confirm.getByRole("alert")).toHaveText(/last admin/);
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(confirm).toBeHidden();
  await expect(removeSelf).toBeFocused();
  await page.getByRole("button", { name: "Change role of Tia Team" }).click();
  const demote = page.getByRole("dialog", { name: "Change the role of Tia Team" });
  await demote.getByLabel("Support").check();
  await demote.getByRole("button", { name: "Save role" }).click();
  await expect(demote.getByRole("alert")).toHaveText(/last admin/);
  await page.keyboard.press("Escape");
  await expect(table.getByRole("row", { name: /Tia Team/ })).toContainText("Admin");

  // Add a person: a new account, whose password is shown once.
  const email = `teammate-${Date.now()}@example.test`;
  await page.getByRole("button", { name: "Add member" }).click();
  const add = page.getByRole("dialog", { name: "Add a team member" });
  await add.getByLabel("E-mail").fill(email);
  await add.getByLabel(/^Name/).fill("Nia New");
  await add.getByLabel(/^Support/).check();
  await add.getByRole("button", { name: "Add member" }).click();
  const added = page.getByRole("dialog", { name: "Member added" });
  const firstPassword = await added.getByLabel("Password (shown once)").inputValue();
  expect(firstPassword).toMatch(/^[0-9A-Za-z]{16}$/);
  await added.getByRole("button", { name: "Done" }).click();
  const row = table.getByRole("row", { name: /Nia New/ });
  await expect(row).toContainText(email);
  await expect(row).toContainText("Support");
  expect(await page.content()).not.toContain(firstPassword);

  // Adding the same person again is refused, next to the e-mail field.
  await page.getByRole("button", { name: "Add member" }).click();
  await add.getByLabel("E-mail").fill(email);
  await add.getByRole("button", { name: "Add member" }).click();
  await expect(add.getByText(`${email} is already a member of this workspace.`).first()).toBeVisible();
  await add.getByRole("button", { name: "Cancel" }).click();

  // Change the role.
  await page.getByRole("button", { name: "Change role of Nia New" }).click();
  const role = page.getByRole("dialog", { name: "Change the role of Nia New" });
  await role.getByLabel("Admin").check();
  await role.getByRole("button", { name: "Save role" }).click();
  await expect(role).toBeHidden();
  await expect(page.getByRole("status").filter({ hasText: "Nia New is now admin." })).toBeVisible();
  await expect(row).toContainText("Admin");

  // Reset the password: a new one, shown once, which signs in (the first one no longer does).
  await page.getByRole("button", { name: "Reset password of Nia New" }).click();
  await page.getByRole("alertdialog", { name: "Reset the password of Nia New?" }).getByRole("button", { name: "Reset password" }).click();
  const reset = page.getByRole("dialog", { name: "Password reset" });
  const newPassword = await reset.getByLabel("Password (shown once)").inputValue();
  expect(newPassword).toMatch(/^[0-9A-Za-z]{16}$/);
  expect(newPassword).not.toBe(firstPassword);
  await reset.getByRole("button", { name: "Done" }).click();

  const other = await browser.newContext({ baseURL: uiTarget().baseUrl });
  try {
    const theirs = await other.newPage();
    await signInPage(theirs, { email, password: newPassword });
    await expect(theirs).toHaveURL(new RegExp(`/w/${team.id}/keys$`));
  } finally {
    await other.close();
  }

  // Back to one admin, so the page stays as the other tests expect it.
  await page.getByRole("button", { name: "Remove Nia New" }).click();
  await page.getByRole("alertdialog", { name: "Remove Nia New?" }).getByRole("button", { name: "Remove member" }).click();
  await expect(row).toHaveCount(0);
});

test("support staff see no Team link and cannot reach the page", async ({ page, seed, signIn }) => {
  test.setTimeout(120_000);
  await signIn(seed.team.support);
  const nav = page.getByRole("navigation", { name: "Dashboard" });
  await expect(nav.getByRole("link", { name: "Messages" })).toBeAttached();
  await expect(nav.getByRole("link", { name: "Team" })).toHaveCount(0);
  await expect(nav.getByRole("link", { name: "Audit log" })).toHaveCount(0);
  await page.goto(`/w/${seed.team.id}/team`);
  await expect(page.getByRole("heading", { level: 1, name: "Team" })).toBeVisible();
  await expect(page.getByRole("main").getByRole("alert")).toHaveText(/Only admins of this workspace can see the team/);
  await expect(page.getByRole("table")).toHaveCount(0);
  // The page's procedures refuse them as well.
  const res = await page.request.get(`/api/trpc/team.list`, { headers: { "x-svc-workspace": seed.team.id } });
  expect(res.status()).toBe(403);
  expect((await res.json()).error.data.code).toBe("role_required");
});

for (const role of ["admin", "support"] as const) {
  test(`the Team page as ${role} at ${WIDTHS.map((w) => w.width).join(" and ")} px: no overflow, no serious axe violation, screenshots`, async ({
    page,
    seed,
    signIn,
  }) => {
    test.setTimeout(120_000);
    await signIn(seed.team[role]);
    await page.goto(`/w/${seed.team.id}/team`);
    if (role === "admin") await expect(page.getByRole("table", { name: "Members of this workspace" })).toBeVisible();
    await checkPageAtWidths(page, `${role}-team`);
  });
}
