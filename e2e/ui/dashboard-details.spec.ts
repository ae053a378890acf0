import type { Page } from "@playwright/test";
import { checkPageAtWidths } from "./fixtures/page-checks.ts";
import { expect, test } from "./fixtures/test.ts";

// Issue 46, item 9, at 1440 and 390 px:
// - a contact's event that woke a waiting run and counted a conversion says so on the contact's
//   page (not "None": an event's `triggered` names only the runs it started);
// - a live e-mail that the service retries after its relay refused the connection says, at the
//   top of its page, why the last attempt failed and when the next is due (not "Error None");
// - the top bar's search says each message's mode, as it finds live and test ones together.
// The "Reactive" workspace (a test key with every scope) and the "Reach" one (an e-mail channel
// whose relay, 127.0.0.1:9, refuses every connection) of fixtures/seed.ts.

test.beforeEach(() => test.setTimeout(180_000));

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** A call of the dashboard's own API (tRPC) in a workspace, answering its data. */
async function dashboardCall<T>(page: Page, workspaceId: string, procedure: string, input: unknown): Promise<T> {
  const response = await page.request.post(`/api/trpc/${procedure}`, {
    headers: { "x-svc-workspace": workspaceId, "content-type": "application/json" },
    data: input,
  });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { result: { data: T } }).result.data;
}

/** A call of the public API with a key, expecting `status`. */
async function api<T>(page: Page, key: string, method: "GET" | "POST", path: string, status: number, data?: unknown): Promise<T> {
  const response = await page.request.fetch(`/api/v1${path}`, { method, headers: { Authorization: `Bearer ${key}` }, data });
  expect(response.status(), await response.text()).toBe(status);
  return (await response.json()) as T;
}

for (const viewport of [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
]) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test("a contact's event that woke a run and reached its goal names that run on the contact's page", async ({ page, seed, signIn }) => {
      const { reactive } = seed;
      const name = `Payment wait ${unique()}`;
      const email = `payer-${unique()}@example.com`;
      await signIn(reactive.admin);
      // A run waits for order_paid, which is also the flow's goal (the run goes on once it is reached).
      const { flow_id: flowId } = await dashboardCall<{ flow_id: string }>(page, reactive.id, "flows.create", {
        definition: {
          name,
          status: "active",
          goal: { event: "order_paid", exit: false },
          steps: [{ type: "wait_for", id: "paid", event: "order_paid", timeout: "P1D", on_event: [], on_timeout: [] }],
        },
      });
      const run = await api<{ id: string }>(page, reactive.testKey, "POST", `/flows/${flowId}/enroll`, 201, {
        to: { email, name: "Pat Payer" },
      });
      await expect
        .poll(async () =>
          (await api<{ history: { kind: string }[] }>(page, reactive.testKey, "GET", `/runs/${run.id}`, 200)).history.map((h) => h.kind),
        )
        .toContain("waiting");
      const paid = await api<{ id: string; contact_id: string; triggered: unknown[] }>(page, reactive.testKey, "POST", "/events", 202, {
        name: "order_paid",
        to: { email },
        properties: { order_id: "ord_1" },
      });
      expect(paid.triggered).toEqual([]);
      await expect
        .poll(async () =>
          (await api<{ history: { kind: string }[] }>(page, reactive.testKey, "GET", `/runs/${run.id}`, 200)).history.map((h) => h.kind),
        )
        .toEqual(expect.arrayContaining(["converted", "woke"]));

      await page.goto(`/w/${reactive.id}/contacts/${paid.contact_id}`);
      await expect(page.getByRole("heading", { level: 1, name: "Pat Payer" })).toBeVisible();
      const row = page.getByRole("table", { name: "Contact events, newest first" }).getByRole("row").filter({ hasText: paid.id });
      await expect(row).toContainText(`Woke a waiting run of ${name}`);
      await expect(row).toContainText(`Counted a conversion in ${name}`);
      await expect(row).not.toContainText("None");
      const href = `/w/${reactive.id}/flows/${flowId}?run=${run.id}`;
      await expect(row.getByRole("link", { name })).toHaveCount(2);
      for (const link of await row.getByRole("link", { name }).all()) await expect(link).toHaveAttribute("href", href);
      await checkPageAtWidths(page, `details-contact-events-${viewport.width}`);
    });

    test("a live e-mail retried after a refused connection says why and when next at the top; search marks live and test", async ({
      page,
      seed,
      signIn,
    }) => {
      const { reach } = seed;
      const to = `retry-${unique()}@example.com`;
      await signIn(reach.admin);
      const keys = {
        live: (await dashboardCall<{ key: string }>(page, reach.id, "keys.create", { name: `Live ${unique()}`, mode: "live" })).key,
        test: (await dashboardCall<{ key: string }>(page, reach.id, "keys.create", { name: `Test ${unique()}`, mode: "test" })).key,
      };
      const send = (key: string) =>
        api<{ id: string }>(page, key, "POST", "/messages", 202, {
          channel: "email",
          to: { email: to },
          email: { subject: "Your receipt", html: "<p>Thanks</p>" },
        });
      const live = await send(keys.live);
      const testMessage = await send(keys.test);

      // The message's page: queued, the last attempt's error in words and as said, the next attempt's time.
      await page.goto(`/w/${reach.id}/messages/${live.id}`);
      await expect(page.getByRole("heading", { level: 1, name: `E-mail message to ${to}` })).toBeVisible();
      const details = page.getByRole("region", { name: "Message details" });
      await expect(details.getByRole("definition").first()).toHaveText("queued");
      const error = details.locator("dt", { hasText: /^Error$/ }).locator("xpath=following-sibling::dd[1]");
      await expect(error).toContainText(/The mail server refused the connection \(\d+ attempts? failed so far\)\. Next attempt: /, {
        timeout: 30_000,
      });
      await expect(error).toContainText("ECONNREFUSED");
      await expect(error.locator("time")).toBeVisible();
      await expect(error).not.toContainText("None");
      await checkPageAtWidths(page, `details-retrying-${viewport.width}`);

      // The search finds both e-mails to the address, each with its mode.
      const box = page.getByRole("searchbox", { name: /Search messages, contacts/ });
      await box.fill(to);
      const messages = page.getByRole("search").getByRole("region", { name: "Messages" });
      const hit = (id: string) => messages.getByRole("link").filter({ hasText: id });
      await expect(hit(live.id).locator(".badge")).toHaveText("live");
      await expect(hit(testMessage.id).locator(".badge")).toHaveText("test");
      await checkPageAtWidths(page, `details-search-${viewport.width}`);
    });
  });
}
