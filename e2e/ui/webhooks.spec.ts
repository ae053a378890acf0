import { createHmac } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures/test.ts";

// The webhooks page and an endpoint's delivery log, in the "Webhooks" workspace seeded by
// fixtures/seed.ts. Each test starts its own receiver on loopback (the server runs with
// ALLOW_PRIVATE_WEBHOOKS=1, and with WEBHOOK_RETRY_SCHEDULE=1, so a failing delivery is retried
// once a second later and then ends `failed`). Endpoint URLs are unique per test.

test.use({ permissions: ["clipboard-read", "clipboard-write"] });

type Received = { headers: IncomingHttpHeaders; body: string };

/** A real HTTP receiver on 127.0.0.1 that records every request and answers as told. */
type Receiver = {
  url: string;
  received: Received[];
  answerWith: (status: number, body: string) => void;
  close: () => Promise<void>;
};

async function startReceiver(path: string): Promise<Receiver> {
  const received: Received[] = [];
  let answer = { status: 200, body: '{"received":true}' };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(answer.status, { "content-type": "text/plain" }).end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    received,
    answerWith: (status, body) => (answer = { status, body }),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The `v1` values of an `X-svc-Signature` header that match `<t>.<raw body>` keyed with `secret`, checked as a receiver would. */
function signedWith(request: Received, secret: string): boolean {
  const header = request.headers["x-svc-signature"];
  expect(typeof header).toBe("string");
  const parts = String(header)
    .split(",")
    .map((part) => part.split("="));
  const t = Number(parts.find(([key]) => key === "t")?.[1]);
  expect(Math.abs(Date.now() / 1000 - t)).toBeLessThan(300);
  const expected = createHmac("sha256", secret).update(`${t}.${request.body}`).digest("hex");
  return parts.some(([key, value]) => key === "v1" && value === expected);
}

function v1Count(request: Received): number {
  return String(request.headers["x-svc-signature"])
    .split(",")
    .filter((part) => part.startsWith("v1=")).length;
}

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

async function openWebhooks(page: Page): Promise<void> {
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Webhooks" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Webhooks" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Webhooks" })).toHaveAttribute("aria-current", "page");
  // The list is fetched by the page's script: once it shows, the page's controls respond.
  await expect(page.getByRole("list", { name: "Endpoints" })).toBeVisible();
}

const card = (page: Page, url: string) => page.getByRole("article", { name: url, exact: true });

/** Sends a test event from the endpoint's card; returns the ids the page reports. */
async function sendTestEvent(page: Page, url: string, event: string): Promise<{ eventId: string; deliveryId: string }> {
  await card(page, url)
    .getByRole("button", { name: `Send test event to ${url}` })
    .click();
  const dialog = page.getByRole("dialog", { name: "Send a test event" });
  await dialog.getByLabel("Event").selectOption(event);
  await dialog.getByRole("button", { name: "Send test event" }).click();
  await expect(dialog).toHaveCount(0);
  const status = page.getByRole("status").filter({ hasText: `Test event ${event} queued` });
  await expect(status).toBeVisible();
  const text = (await status.textContent()) ?? "";
  const [, eventId, deliveryId] = /event (evt_\w+), delivery (whd_\w+)/.exec(text) ?? [];
  expect(eventId).toBeTruthy();
  return { eventId: eventId!, deliveryId: deliveryId! };
}

test.describe("an admin", () => {
  let receiver: Receiver;
  test.beforeEach(async () => {
    receiver = await startReceiver(`/hooks/${unique()}`);
  });
  test.afterEach(async () => {
    await receiver.close();
  });

  test("adds an endpoint, verifies signed test events, follows failures, replays, rotates and disables", async ({ page, seed, signIn }) => {
    test.setTimeout(120_000);
    await signIn(seed.webhooks.admin);
    await openWebhooks(page);

    // Add: a URL the server refuses is shown at the field.
    await page.getByRole("button", { name: "Add endpoint" }).click();
    const form = page.getByRole("dialog", { name: "Add endpoint" });
    const urlInput = form.getByLabel("URL");
    await urlInput.fill("ftp://127.0.0.1/hooks");
    await form.getByLabel("Description").fill("E2E receiver");
    await form.getByLabel("mensagem.entregue").check();
    await form.getByLabel("contato.criado").check();
    await form.getByRole("button", { name: "Add endpoint" }).click();
    await expect(urlInput).toHaveAttribute("aria-invalid", "true");
    await expect(urlInput).toHaveAccessibleDescription(/url: must be an http or https URL/);
    await expect(urlInput).toBeFocused();
    await urlInput.fill(receiver.url);
    await form.getByRole("button", { name: "Add endpoint" }).click();

    // The secret, this once, with a copy button.
    const shown = page.getByRole("dialog", { name: "Endpoint added" });
    await expect(shown).toContainText("you will not see it again");
    const secret = await shown.getByRole("textbox", { name: "Signing secret" }).inputValue();
    expect(secret).toMatch(/^whsec_[0-9A-Za-z]{32}$/);
    await shown.getByRole("button", { name: "Copy the signing secret" }).click();
    await expect(shown.getByRole("status")).toHaveText("Copied.");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await shown.getByRole("button", { name: "Done" }).click();
    await expect(shown).toHaveCount(0);
    await expect(page.getByRole("status").filter({ hasText: `Endpoint ${receiver.url} added.` })).toBeVisible();

    const endpoint = card(page, receiver.url);
    await expect(endpoint).toContainText("Enabled");
    await expect(endpoint).toContainText("E2E receiver");
    await expect(endpoint.getByRole("list", { name: `Events of ${receiver.url}` })).toContainText("mensagem.entregue");
    await expect(endpoint.getByRole("list", { name: `Events of ${receiver.url}` })).toContainText("contato.criado");
    await expect(endpoint.getByRole("list", { name: `Signing secrets of ${receiver.url}` }).getByRole("listitem")).toHaveText([
      /^Current: created .+, no expiry$/,
    ]);
    // Shown once: not on the page any more, nor after a reload.
    expect(await page.content()).not.toContain(secret);
    await page.reload();
    await expect(card(page, receiver.url)).toBeVisible();
    expect(await page.content()).not.toContain(secret);

    // The delivery log.
    await card(page, receiver.url)
      .getByRole("link", { name: `Delivery log of ${receiver.url}` })
      .click();
    await expect(page).toHaveURL(/\/webhooks\/we_\w+$/);
    await expect(page.getByRole("heading", { level: 1, name: "Delivery log" })).toBeVisible();
    await expect(page.getByText("No deliveries yet.")).toBeVisible();

    // A test event reaches the receiver, signed with the secret revealed once.
    const first = await sendTestEvent(page, receiver.url, "mensagem.entregue");
    await expect.poll(() => receiver.received.length).toBe(1);
    const [request] = receiver.received;
    expect(signedWith(request!, secret)).toBe(true);
    expect(signedWith(request!, `${secret.slice(0, -1)}${secret.endsWith("x") ? "y" : "x"}`)).toBe(false);
    expect(request!.headers["x-svc-event-id"]).toBe(first.eventId);
    expect(JSON.parse(request!.body)).toMatchObject({
      id: first.eventId,
      event: "mensagem.entregue",
      mode: "test",
      namespace: seed.webhooks.id,
      data: { status: "delivered", channelType: "whatsapp" },
    });
    const firstRow = page.getByRole("row", { name: new RegExp(first.eventId) });
    await expect(firstRow).toContainText("succeeded");
    await expect(firstRow.getByRole("cell").nth(3)).toHaveText("200");
    await expect(firstRow).toContainText('{"received":true}');
    await expect(firstRow).toContainText(/\d+ ms/);

    // The receiver fails: the attempts and the receiver's answer are in the log.
    receiver.answerWith(500, "receiver is down for maintenance");
    const second = await sendTestEvent(page, receiver.url, "contato.criado");
    const secondRow = page.getByRole("row", { name: new RegExp(second.eventId) });
    await expect(secondRow).toContainText("failed", { timeout: 20_000 });
    await expect(secondRow.getByRole("cell").nth(2)).toHaveText("2");
    await expect(secondRow.getByRole("cell").nth(3)).toHaveText("500");
    await expect(secondRow).toContainText("receiver is down for maintenance");
    await expect(secondRow).toContainText("The endpoint answered 500.");
    expect(receiver.received).toHaveLength(3);

    // Every attempt and the body, in the delivery's details.
    await secondRow.getByRole("button", { name: `Details of delivery ${second.deliveryId}` }).click();
    const details = page.getByRole("dialog", { name: `Delivery ${second.deliveryId}` });
    const attempts = details.getByRole("list", { name: "Attempts, oldest first" }).getByRole("listitem");
    await expect(attempts).toHaveCount(2);
    for (const attempt of await attempts.all()) {
      await expect(attempt).toContainText("HTTP 500");
      await expect(attempt).toContainText("receiver is down for maintenance");
    }
    await expect(details.getByLabel("Body, indented")).toContainText(`"id": "${second.eventId}"`);
    await expect(details.getByLabel("Body, indented")).toContainText(`"mode": "test"`);
    await details.getByRole("button", { name: "Close" }).click();
    await expect(details).toHaveCount(0);

    // The status filter.
    await page.getByLabel("Status").selectOption("failed");
    await expect(page).toHaveURL(/\?status=failed$/);
    await expect(secondRow).toBeVisible();
    await expect(firstRow).toHaveCount(0);
    await page.getByLabel("Status").selectOption("");
    await expect(firstRow).toBeVisible();

    // Fixed: a replay succeeds, with the same event id and body, and signed.
    receiver.answerWith(200, "back again");
    await secondRow.getByRole("button", { name: `Replay delivery ${second.deliveryId}` }).click();
    await expect(
      page.getByRole("status").filter({ hasText: `Delivery ${second.deliveryId} (contato.criado) queued again.` }),
    ).toBeVisible();
    await expect(secondRow).toContainText("succeeded");
    await expect(secondRow.getByRole("cell").nth(2)).toHaveText("3");
    await expect(secondRow.getByRole("cell").nth(3)).toHaveText("200");
    await expect(secondRow).toContainText("back again");
    expect(receiver.received).toHaveLength(4);
    expect(receiver.received[3]!.body).toBe(receiver.received[1]!.body);
    expect(signedWith(receiver.received[3]!, secret)).toBe(true);

    // Failed deliveries of a time range, replayed together.
    receiver.answerWith(503, "overloaded");
    const third = await sendTestEvent(page, receiver.url, "fluxo.parado");
    const thirdRow = page.getByRole("row", { name: new RegExp(third.eventId) });
    await expect(thirdRow).toContainText("failed", { timeout: 20_000 });
    await expect(thirdRow).toContainText("overloaded");
    receiver.answerWith(200, "ok");
    await page.getByRole("button", { name: "Replay failed deliveries…" }).click();
    const range = page.getByRole("dialog", { name: "Replay failed deliveries" });
    await expect(range.getByLabel("From")).not.toHaveValue("");
    await expect(range.getByLabel("To")).not.toHaveValue("");
    await range.getByRole("button", { name: "Replay failed deliveries" }).click();
    await expect(range).toHaveCount(0);
    await expect(page.getByRole("status").filter({ hasText: "1 failed delivery queued again." })).toBeVisible();
    await expect(thirdRow).toContainText("succeeded");
    await expect(thirdRow.getByRole("cell").nth(2)).toHaveText("3");

    // Rotate: confirmed, the new secret shown once; both secrets sign deliveries for 24 hours.
    await card(page, receiver.url)
      .getByRole("button", { name: `Rotate secret of ${receiver.url}` })
      .click();
    const confirmRotate = page.getByRole("alertdialog", { name: "Rotate the signing secret?" });
    await expect(confirmRotate).toContainText("stays valid for 24 hours");
    await expect(confirmRotate.getByRole("button", { name: "Cancel" })).toBeFocused();
    await confirmRotate.getByRole("button", { name: "Rotate secret" }).click();
    const rotated = page.getByRole("dialog", { name: "Signing secret rotated" });
    await expect(rotated).toContainText("you will not see it again");
    await expect(rotated).toContainText("The previous secret stays valid until");
    const newSecret = await rotated.getByRole("textbox", { name: "Signing secret" }).inputValue();
    expect(newSecret).toMatch(/^whsec_[0-9A-Za-z]{32}$/);
    expect(newSecret).not.toBe(secret);
    await rotated.getByRole("button", { name: "Done" }).click();
    await expect(rotated).toHaveCount(0);
    await expect(
      card(page, receiver.url)
        .getByRole("list", { name: `Signing secrets of ${receiver.url}` })
        .getByRole("listitem"),
    ).toHaveText([/^Current: created .+, no expiry$/, /^Previous: created .+, valid until .+$/]);
    const afterRotation = await sendTestEvent(page, receiver.url, "mensagem.lida");
    await expect(page.getByRole("row", { name: new RegExp(afterRotation.eventId) })).toContainText("succeeded");
    const last = receiver.received.at(-1)!;
    expect(JSON.parse(last.body)).toMatchObject({ id: afterRotation.eventId });
    expect(v1Count(last)).toBe(2);
    expect(signedWith(last, newSecret)).toBe(true);
    expect(signedWith(last, secret)).toBe(true);

    // Disable, confirmed: no more test events or replays.
    await card(page, receiver.url)
      .getByRole("button", { name: `Disable ${receiver.url}` })
      .click();
    const confirmDisable = page.getByRole("alertdialog", { name: "Disable this endpoint?" });
    await confirmDisable.getByRole("button", { name: "Disable endpoint" }).click();
    await expect(confirmDisable).toHaveCount(0);
    await expect(page.getByRole("status").filter({ hasText: `Endpoint ${receiver.url} disabled.` })).toBeVisible();
    const disabled = card(page, receiver.url);
    await expect(disabled).toContainText("Disabled");
    await expect(disabled).toContainText("Disabled by an admin");
    await expect(disabled.getByRole("button", { name: `Send test event to ${receiver.url}` })).toHaveCount(0);
    await expect(disabled.getByRole("button", { name: `Enable ${receiver.url}` })).toBeVisible();
    await expect(page.getByRole("button", { name: /^Replay/ })).toHaveCount(0);

    // The list shows it disabled, with the last day's deliveries.
    await page.getByRole("link", { name: "← All endpoints" }).click();
    const listed = card(page, receiver.url);
    await expect(listed).toContainText("Disabled");
    await expect(listed.getByLabel(`Deliveries of the last 24 hours to ${receiver.url}`)).toContainText("4 succeeded");
  });

  test("edits an endpoint and deletes it after a confirmation", async ({ page, seed, signIn }) => {
    await signIn(seed.webhooks.admin);
    await openWebhooks(page);
    await page.getByRole("button", { name: "Add endpoint" }).click();
    const form = page.getByRole("dialog", { name: "Add endpoint" });
    // The URL is required before asking the server.
    await form.getByRole("button", { name: "Add endpoint" }).click();
    await expect(form.getByLabel("URL")).toHaveAccessibleDescription(/The URL is required/);
    await form.getByLabel("URL").fill(receiver.url);
    await form.getByLabel("fluxo.concluido").check();
    await form.getByRole("button", { name: "Add endpoint" }).click();
    await page.getByRole("dialog", { name: "Endpoint added" }).getByRole("button", { name: "Done" }).click();

    const endpoint = card(page, receiver.url);
    await expect(endpoint.getByRole("list", { name: `Events of ${receiver.url}` })).toHaveText("Journey completed fluxo.concluido");
    await expect(endpoint).toContainText("None");

    // Edit: a refused URL at the field, then a new URL, a description and every event.
    await endpoint.getByRole("button", { name: `Edit ${receiver.url}` }).click();
    const edit = page.getByRole("dialog", { name: "Edit endpoint" });
    await expect(edit.getByLabel("URL")).toHaveValue(receiver.url);
    await expect(edit.getByLabel("fluxo.concluido")).toBeChecked();
    await edit.getByLabel("URL").fill("not a url");
    await edit.getByRole("button", { name: "Save changes" }).click();
    await expect(edit.getByLabel("URL")).toHaveAccessibleDescription(/url: not an absolute URL/);
    const moved = `${receiver.url}/moved`;
    await edit.getByLabel("URL").fill(moved);
    await edit.getByLabel("Description").fill("Moved receiver");
    await edit.getByLabel("fluxo.concluido").uncheck();
    await edit.getByRole("button", { name: "Save changes" }).click();
    await expect(edit).toHaveCount(0);
    await expect(page.getByRole("status").filter({ hasText: "Endpoint saved." })).toBeVisible();
    const edited = card(page, moved);
    await expect(edited).toContainText("Moved receiver");
    await expect(edited).toContainText("All events");
    await expect(card(page, receiver.url)).toHaveCount(0);

    // Delete: cancelling keeps it; confirming removes it.
    await edited.getByRole("button", { name: `Delete ${moved}` }).click();
    const confirm = page.getByRole("alertdialog", { name: "Delete this endpoint?" });
    await expect(confirm).toContainText("cannot be undone");
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await expect(confirm).toHaveCount(0);
    await expect(edited).toBeVisible();
    await edited.getByRole("button", { name: `Delete ${moved}` }).click();
    await confirm.getByRole("button", { name: "Delete endpoint" }).click();
    await expect(confirm).toHaveCount(0);
    await expect(card(page, moved)).toHaveCount(0);
    await expect(page.getByRole("status").filter({ hasText: `Endpoint ${moved} deleted.` })).toBeVisible();
  });
});

test("support users see the endpoints and the delivery log without any control", async ({ page, seed, signIn }) => {
  const { endpointUrl, eventId, deliveryId } = seed.webhooks;
  await signIn(seed.webhooks.support);
  await openWebhooks(page);
  await expect(page.getByText("You have read-only access to this workspace's webhooks.")).toBeVisible();
  const seeded = card(page, endpointUrl);
  await expect(seeded).toContainText("Seeded receiver");
  await expect(seeded.getByRole("list", { name: `Events of ${endpointUrl}` })).toContainText("mensagem.falhou");
  await expect(seeded.getByRole("list", { name: `Signing secrets of ${endpointUrl}` })).toContainText("Current: created");
  await expect(page.getByRole("button", { name: "Add endpoint" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: /Send test event|Edit|Rotate|Disable|Enable|Delete/ })).toHaveCount(0);

  // Disabled by the service after 5 days of failures: said so.
  const failing = card(page, seed.webhooks.failingEndpointUrl);
  await expect(failing).toContainText("Disabled");
  await expect(failing).toContainText("Disabled by the service");
  await expect(failing).toContainText("failed for 5 days in a row");
  await expect(failing).toContainText("All events");

  await seeded.getByRole("link", { name: `Delivery log of ${endpointUrl}` }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Delivery log" })).toBeVisible();
  // 26 deliveries, newest first: the oldest is alone on the second page.
  // Rows of deliveries (a header row for each day sits between them).
  const rows = page
    .getByRole("table")
    .getByRole("row")
    .filter({ has: page.getByRole("button", { name: /^Details of delivery/ }) });
  await expect(rows).toHaveCount(25);
  await expect(page.getByRole("table").getByRole("columnheader", { name: "Time" })).toBeVisible();
  // At 1440 px the log fits its column: nothing scrolls sideways, the actions are on the screen.
  await page.setViewportSize({ width: 1440, height: 900 });
  const wrap = page.locator(".table-wrap.deliveries");
  await expect.poll(() => wrap.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
  const firstDetails = rows.first().getByRole("button", { name: /^Details of delivery/ });
  const box = (await firstDetails.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(1440);
  const pager = page.getByRole("navigation", { name: "Pages of deliveries" });
  await expect(pager).toContainText("Page 1");
  await pager.getByRole("button", { name: "Next page" }).click();
  await expect(pager).toContainText("Page 2");
  await expect(rows).toHaveCount(1);
  await expect(pager.getByRole("button", { name: "Next page" })).toBeDisabled();
  // The seeded test event went to a closed port: both attempts failed.
  const row = page.getByRole("row", { name: new RegExp(eventId) });
  await expect(row).toContainText("failed", { timeout: 20_000 });
  await expect(row.getByRole("cell").nth(2)).toHaveText("2");
  await expect(row).toContainText("ECONNREFUSED");
  await row.getByRole("button", { name: `Details of delivery ${deliveryId}` }).click();
  const details = page.getByRole("dialog", { name: `Delivery ${deliveryId}` });
  await expect(details.getByRole("list", { name: "Attempts, oldest first" }).getByRole("listitem")).toHaveCount(2);
  await expect(details.getByLabel("Body, indented")).toContainText(`"event": "mensagem.falhou"`);
  await details.getByRole("button", { name: "Close" }).click();
  await expect(page.getByRole("button", { name: /Replay|Send test event|Edit|Rotate|Disable|Enable|Delete/ })).toHaveCount(0);

  // The server refuses them too.
  for (const [procedure, input] of [
    ["webhooks.sendTestEvent", { endpoint_id: seed.webhooks.endpointId }],
    ["webhooks.replay", { delivery_id: deliveryId }],
    ["webhooks.rotateSecret", { endpoint_id: seed.webhooks.endpointId }],
  ] as const) {
    const response = await page.request.post(`/api/trpc/${procedure}`, {
      headers: { "x-svc-workspace": seed.webhooks.id, "content-type": "application/json" },
      data: input,
    });
    expect(response.ok()).toBe(false);
    const body = (await response.json()) as { error: { data: { type?: string } } };
    expect(body.error.data.type).toBe("forbidden");
  }
});
