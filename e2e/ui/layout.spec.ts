import type { BrowserContext, Page } from "@playwright/test";
import { openContact } from "./fixtures/contacts.ts";
import { checkPageAtWidths, settle, trackRequests, WIDTHS } from "./fixtures/page-checks.ts";
import { uiTarget, type UiSeed, type UiUser } from "./fixtures/target.ts";
import { expect, signIn as signInPage, test } from "./fixtures/test.ts";

// The dashboard's layout and accessibility on every page, as an admin and as support staff,
// at 1440 px and at a phone's 390 px: no horizontal overflow, no serious or critical axe-core
// violation, and a screenshot of each page (test-results/screenshots, ignored by git) for a
// person to look at. Then the shared pieces: the folding navigation, the stacked table rows,
// focus back on a dialog's opener, the theme control, English event names, the docs' contents.

type Visit = { name: string; path: string | ((page: Page) => Promise<string>) };
type Tour = {
  role: "admin" | "support" | "public";
  area: string;
  user: (seed: UiSeed) => UiUser | null;
  visits: (seed: UiSeed) => Visit[];
};

/** A contact's page, found by name through the contacts list as a person would. */
const contactOf = (workspace: string, name: string) => async (page: Page) => {
  await openContact(page, workspace, name);
  return new URL(page.url()).pathname;
};

const ALPHA_PAGES = ["overview", "keys", "messages", "contacts", "suppressions", "tags", "flows", "channels", "webhooks", "usage"];

const TOURS: Tour[] = [
  {
    role: "admin",
    area: "alpha",
    user: (s) => s.admin,
    visits: (s) => [
      ...[...ALPHA_PAGES, "team", "audit"].map((p) => ({ name: p, path: `/w/${s.alpha.id}/${p}` })),
      { name: "contact", path: contactOf(s.alpha.id, "Dora Detail") },
    ],
  },
  {
    role: "admin",
    area: "messages",
    user: (s) => s.messages.admin,
    visits: (s) => [
      { name: "overview", path: `/w/${s.messages.id}/overview` },
      { name: "messages-list", path: `/w/${s.messages.id}/messages` },
      { name: "message-whatsapp", path: `/w/${s.messages.id}/messages/${s.messages.whatsappTest}` },
      { name: "message-email", path: `/w/${s.messages.id}/messages/${s.messages.emailTest}` },
      { name: "message-failed", path: `/w/${s.messages.id}/messages/${s.messages.failedTest}` },
    ],
  },
  {
    role: "admin",
    area: "webhooks",
    user: (s) => s.webhooks.admin,
    visits: (s) => [
      { name: "webhooks-list", path: `/w/${s.webhooks.id}/webhooks` },
      { name: "endpoint", path: `/w/${s.webhooks.id}/webhooks/${s.webhooks.endpointId}` },
    ],
  },
  {
    role: "admin",
    area: "flows",
    user: (s) => s.flows.admin,
    visits: (s) => [
      { name: "flows-list", path: `/w/${s.flows.id}/flows` },
      { name: "flow", path: `/w/${s.flows.id}/flows/${s.flows.seededFlow.id}` },
      { name: "flow-new", path: `/w/${s.flows.id}/flows/new` },
    ],
  },
  {
    role: "admin",
    area: "channels-usage",
    user: (s) => s.channels.admin,
    visits: (s) => [{ name: "channels-connected", path: `/w/${s.channels.id}/channels` }],
  },
  {
    role: "admin",
    area: "usage",
    user: (s) => s.usage.user,
    visits: (s) => [{ name: "usage-limits", path: `/w/${s.usage.id}/usage` }],
  },
  {
    role: "support",
    area: "alpha",
    user: (s) => s.support,
    visits: (s) => [
      ...ALPHA_PAGES.map((p) => ({ name: p, path: `/w/${s.alpha.id}/${p}` })),
      { name: "contact", path: contactOf(s.alpha.id, "Dora Detail") },
    ],
  },
  {
    role: "support",
    area: "workspaces",
    user: (s) => s.messages.support,
    visits: (s) => [
      { name: "messages-list", path: `/w/${s.messages.id}/messages` },
      { name: "message-whatsapp", path: `/w/${s.messages.id}/messages/${s.messages.whatsappTest}` },
    ],
  },
  {
    role: "support",
    area: "webhooks",
    user: (s) => s.webhooks.support,
    visits: (s) => [{ name: "endpoint", path: `/w/${s.webhooks.id}/webhooks/${s.webhooks.endpointId}` }],
  },
  {
    role: "support",
    area: "flows",
    user: (s) => s.flows.support,
    visits: (s) => [{ name: "flow", path: `/w/${s.flows.id}/flows/${s.flows.seededFlow.id}` }],
  },
  {
    role: "public",
    area: "docs",
    user: () => null,
    visits: () => [
      { name: "sign-in", path: "/sign-in" },
      { name: "docs-getting-started", path: "/docs/getting-started" },
      { name: "docs-errors", path: "/docs/errors" },
      { name: "docs-webhooks", path: "/docs/webhooks" },
      { name: "docs-whatsapp", path: "/docs/whatsapp" },
      { name: "docs-journeys", path: "/docs/journeys" },
      { name: "docs-usage", path: "/docs/usage" },
      // The API reference (Scalar, rendered in the browser): mended by app/docs/api-reference.tsx.
      { name: "docs-reference", path: "/docs" },
    ],
  },
];

for (const tour of TOURS) {
  // One signed-in page per tour, its pages checked in turn, each a test of its own: each page
  // is loaded once and checked at each width in turn. The dashboard's layout follows the width
  // through CSS alone (no script reads it), so a page resized is laid out as one loaded at
  // that width.
  test.describe(`${tour.role} ${tour.area}`, () => {
    test.describe.configure({ mode: "serial" });
    let context: BrowserContext;
    let page: Page;
    test.beforeAll(async ({ browser }) => {
      // Signing in loads a page and its scripts: slow on a loaded machine.
      test.setTimeout(60_000);
      const [{ width, height }] = WIDTHS;
      context = await browser.newContext({ baseURL: uiTarget().baseUrl, viewport: { width, height } });
      page = await context.newPage();
      trackRequests(page);
      const user = tour.user(uiTarget().seed);
      if (user) await signInPage(page, user);
    });
    test.afterAll(async () => {
      await context?.close();
    });

    for (const visit of tour.visits(uiTarget().seed)) {
      test(`${visit.name} at ${WIDTHS.map((w) => w.width).join(" and ")} px: no horizontal overflow, no serious or critical axe violation, a screenshot`, async () => {
        // axe-core reads every node of the page: on a loaded 2-core machine a long page takes
        // tens of seconds on its own.
        test.setTimeout(120_000);
        const path = typeof visit.path === "string" ? visit.path : await visit.path(page);
        const response = await page.goto(path);
        expect(response?.ok(), path).toBe(true);
        await checkPageAtWidths(page, `${tour.role}-${tour.area}-${visit.name}`);
      });
    }
  });
}

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the navigation folds behind a Menu button that unfolds it and folds again on a link", async ({ page, seed, signIn }) => {
    await signIn(seed.support);
    const nav = page.getByRole("navigation", { name: "Dashboard" });
    const menu = nav.getByRole("button", { name: /Menu/ });
    await expect(menu).toHaveAttribute("aria-expanded", "false");
    await expect(nav.getByRole("link", { name: "Contacts" })).toBeHidden();
    // The page's heading is on the first screen, not below eight links.
    const heading = await page.getByRole("heading", { level: 1 }).boundingBox();
    expect(heading!.y).toBeLessThan(300);

    await menu.click();
    await expect(menu).toHaveAttribute("aria-expanded", "true");
    await nav.getByRole("link", { name: "Contacts" }).click();
    await expect(page).toHaveURL(/\/contacts$/);
    await expect(page.getByRole("heading", { level: 1, name: "Contacts" })).toBeVisible();
    await expect(menu).toHaveAttribute("aria-expanded", "false");
    await expect(nav.getByRole("link", { name: "API keys" })).toBeHidden();
    await expect(menu).toContainText("Contacts");
  });

  test("tables turn into stacked rows with each value named, and Revoke stays on the screen", async ({ page, seed, signIn }) => {
    await signIn({ email: "revoker@example.test", password: "revoker-password-1" });
    const table = page.getByRole("table", { name: "API keys of this workspace" });
    const row = table.getByRole("row", { name: new RegExp(seed.alpha.key) });
    await expect(row.getByRole("cell").first()).toHaveAttribute("data-label", "Mode");
    const revoke = row.getByRole("button", { name: `Revoke ${seed.alpha.key}` });
    // The top bar's search box now stands above the list on a phone: the row is a scroll away
    // (vertically); what this checks is that Revoke is not cut off at the right.
    await revoke.scrollIntoViewIfNeeded();
    await expect(revoke).toBeInViewport();
    const box = await revoke.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    // One value a line, its column's name before it.
    const mode = row.getByRole("cell").first();
    const before = await mode.evaluate((cell) => getComputedStyle(cell, "::before").content);
    expect(before).toBe('"Mode"');
    // The header row is left for screen readers only.
    expect((await table.locator("thead").boundingBox())!.height).toBeLessThanOrEqual(1);
  });
});

test("on a wide screen the navigation is a list beside the page, without a Menu button", async ({ page, seed, signIn }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(seed.support);
  const nav = page.getByRole("navigation", { name: "Dashboard" });
  await expect(nav.getByRole("button", { name: /Menu/ })).toBeHidden();
  await expect(nav.getByRole("link", { name: "Contacts" })).toBeVisible();
  const key = page
    .getByRole("row", { name: new RegExp(seed.alpha.key) })
    .getByRole("cell")
    .first();
  expect(await key.evaluate((cell) => getComputedStyle(cell, "::before").content)).toBe("none");
});

test("a page fetches no other page ahead; a link's page is fetched when the pointer rests on it", async ({ page, seed, signIn }) => {
  await signIn(seed.support);
  // Next.js fetches a page ahead as a React Server Components request (the `rsc` header).
  const ahead: string[] = [];
  page.on("request", (request) => {
    if (request.headers()["rsc"]) ahead.push(new URL(request.url()).pathname);
  });
  await page.goto(`/w/${seed.alpha.id}/contacts`);
  await settle(page);
  // The navigation's links and a page of contacts' links are on the screen; none was fetched.
  await expect(
    page
      .getByRole("table", { name: /contacts/i })
      .getByRole("link")
      .first(),
  ).toBeVisible();
  expect(ahead).toEqual([]);

  const flows = page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Flows" });
  await flows.hover();
  await expect.poll(() => ahead).toContain(`/w/${seed.alpha.id}/flows`);
  expect(ahead.every((path) => path === `/w/${seed.alpha.id}/flows`)).toBe(true);
  await flows.click();
  await expect(page.getByRole("heading", { level: 1, name: "Flows" })).toBeVisible();
});

test("by keyboard alone, the key dialogs give focus back to the button that opened them", async ({ page, seed, signIn }) => {
  await signIn({ email: "revoker@example.test", password: "revoker-password-1" });
  const create = page.getByRole("button", { name: "Create API key" });
  await create.focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Create API key" });
  await expect(dialog).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(create).toBeFocused();

  const revoke = page.getByRole("button", { name: `Revoke ${seed.alpha.key}` });
  await revoke.focus();
  await page.keyboard.press("Enter");
  const confirm = page.getByRole("alertdialog");
  await expect(confirm).toBeVisible();
  // Cancel has the focus first; Enter on it closes without revoking.
  await expect(confirm.getByRole("button", { name: "Cancel" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(confirm).toBeHidden();
  await expect(revoke).toBeFocused();
});

test("by keyboard alone, the webhook dialogs give focus back to the button that opened them", async ({ page, seed, signIn }) => {
  await signIn(seed.webhooks.admin);
  await page.goto(`/w/${seed.webhooks.id}/webhooks`);
  const add = page.getByRole("button", { name: "Add endpoint" });
  await add.focus();
  await page.keyboard.press("Enter");
  const form = page.getByRole("dialog", { name: "Add endpoint" });
  await expect(form).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(form).toBeHidden();
  await expect(add).toBeFocused();

  const test = page.getByRole("button", { name: `Send test event to ${seed.webhooks.endpointUrl}` });
  await test.focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: /test event/i });
  await expect(dialog).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(test).toBeFocused();
});

test("the theme control overrides the system's scheme, is remembered, and follows the system again", async ({ page, seed, signIn }) => {
  await page.emulateMedia({ colorScheme: "light" });
  await signIn(seed.support);
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const light = await background();
  const theme = page.getByRole("combobox", { name: "Theme" });
  await expect(theme).toHaveValue("system");

  await theme.selectOption("dark");
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
  const dark = await background();
  expect(dark).not.toBe(light);
  await page.reload();
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
  await expect(page.getByRole("combobox", { name: "Theme" })).toHaveValue("dark");
  expect(await background()).toBe(dark);

  await page.getByRole("combobox", { name: "Theme" }).selectOption("system");
  await expect(page.locator("html")).not.toHaveAttribute("data-theme", /./);
  expect(await background()).toBe(light);
  // "System" is the system's preference: dark when it is dark.
  await page.emulateMedia({ colorScheme: "dark" });
  expect(await background()).toBe(dark);
});

test("a delivery's event reads in English, the API's name beside it", async ({ page, seed, signIn }) => {
  await signIn(seed.webhooks.support);
  await page.goto(`/w/${seed.webhooks.id}/webhooks/${seed.webhooks.endpointId}`);
  // The seeded endpoint's newest deliveries are test events of fluxo.parado.
  const row = page.getByRole("row").filter({ hasText: "fluxo.parado" }).first();
  await expect(row.getByRole("rowheader")).toHaveText("Journey stopped fluxo.parado");
});

test("a contact's history names its events in English with their meaning", async ({ page, seed, signIn }) => {
  await signIn(seed.support);
  await page.goto(await contactOf(seed.alpha.id, "Dora Detail")(page));
  const history = page.getByRole("table", { name: /Events of this contact/ });
  await expect(history.getByRole("rowheader").filter({ hasText: "Contact created" })).toContainText("A contact was created");
});

test("long docs pages open with their contents, and every docs page links back to the dashboard", async ({ page }) => {
  for (const [path, section] of [
    ["/docs/getting-started", "Idempotency"],
    ["/docs/webhooks", "The signature"],
  ] as const) {
    await page.goto(path);
    const contents = page.getByRole("navigation", { name: "On this page" });
    await contents.getByRole("link", { name: section }).click();
    await expect(page).toHaveURL(new RegExp(`#`));
    await expect(page.getByRole("heading", { level: 2, name: section })).toBeInViewport();
  }
  await page.getByRole("link", { name: "Dashboard" }).click();
  // Signed out, the dashboard asks to sign in first.
  await expect(page).toHaveURL(/\/sign-in/);
});
