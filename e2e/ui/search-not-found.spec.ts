import { randomUUID } from "node:crypto";
import { checkPageAtWidths } from "./fixtures/page-checks.ts";
import { expect, test } from "./fixtures/test.ts";

// The top bar's one search box and the in-app not-found pages (issue 38): a support agent
// finds a message by what they have in hand, and a wrong address never leaves the dashboard.

test("a support agent finds a message by the contact's name and by a metadata value; Enter opens the first; / focuses the box", async ({
  page,
  seed,
  signIn,
}) => {
  const m = seed.messages;
  const order = `ord_${randomUUID().slice(0, 8)}`;
  const sent = await page.request.post("/api/v1/messages", {
    headers: { authorization: `Bearer ${m.testKey}` },
    data: { channel: "whatsapp", to: { phone: "+15550104001" }, whatsapp: { body: "Your order" }, metadata: { order_id: order } },
  });
  expect(sent.status(), await sent.text()).toBe(202);
  const { id } = (await sent.json()) as { id: string };

  await signIn(m.support);
  await page.goto(`/w/${m.id}/messages`);
  await expect(page.getByRole("heading", { level: 1, name: "Messages" })).toBeVisible();
  const box = page.getByRole("searchbox", { name: /Search messages, contacts/ });
  await page.locator("body").press("/");
  await expect(box).toBeFocused();

  // A contact's name from its start, any case: the contact and its messages, grouped.
  await box.fill("wanda");
  const results = page.getByRole("search");
  await expect(results.getByRole("region", { name: "Contacts" }).getByRole("link", { name: /Wanda Inspect/ })).toBeVisible();
  const messages = results.getByRole("region", { name: "Messages" });
  await expect(messages.getByRole("link", { name: new RegExp(id) })).toBeVisible();
  await checkPageAtWidths(page, "search-by-name");

  // A metadata value, whole: Enter opens the one message that carries it.
  await box.fill(order);
  await expect(results.getByRole("status")).toHaveText("1 found. Enter opens the first.");
  await box.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/messages/${id}$`));
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
});

test("a wrong message id gets the in-app page, with the menu and the search box, naming the id and the workspace", async ({
  page,
  seed,
  signIn,
}) => {
  const m = seed.messages;
  await signIn(m.support);
  const wrong = `${m.whatsappTest}x`;
  const response = await page.goto(`/w/${m.id}/messages/${wrong}`);
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: `No message ${wrong} in ${m.name}` })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Dashboard" })).toBeVisible();
  await expect(page.getByRole("searchbox", { name: /Search messages, contacts/ })).toBeVisible();
  await checkPageAtWidths(page, "not-found-message");
  await page.getByRole("link", { name: "All messages" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Messages" })).toBeVisible();
});

test("a support agent opening New flow is told only admins can create flows, inside the dashboard", async ({ page, seed, signIn }) => {
  await signIn(seed.flows.support);
  const response = await page.goto(`/w/${seed.flows.id}/flows/new`);
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "Only admins can create flows" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Dashboard" })).toBeVisible();
  await checkPageAtWidths(page, "not-allowed-new-flow");
});

test("a workspace the user is not a member of: a page that lists their own workspaces", async ({ page, seed, signIn }) => {
  await signIn(seed.support);
  const response = await page.goto(`/w/${seed.beta.id}/messages`);
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "Nothing here" })).toBeVisible();
  await page.getByRole("navigation", { name: "Your workspaces" }).getByRole("link", { name: seed.alpha.name }).click();
  await expect(page).toHaveURL(new RegExp(`/w/${seed.alpha.id}`));
});
