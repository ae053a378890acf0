import type { Page } from "@playwright/test";
import { startFakeWhatsApp, type FakeWhatsApp } from "../support/fake-whatsapp.ts";
import { startSmtpSink, type SmtpSink } from "../support/smtp-sink.ts";
import { expect, test } from "./fixtures/test.ts";

// The channels page, in the "Channels" workspace seeded by fixtures/seed.ts. The providers are
// local fakes on loopback started by each test (the server runs with ALLOW_PRIVATE_WEBHOOKS=1):
// a WhatsApp Cloud API stand-in and an SMTP sink. Channel names are unique per test.

const unique = (name: string) => `${name} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

async function openChannels(page: Page): Promise<void> {
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Channels" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Channels" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Channels" })).toHaveAttribute("aria-current", "page");
  // The list is fetched by the page's script: once it shows, the page's controls respond.
  await expect(page.getByRole("list", { name: "Channels" })).toBeVisible();
}

const card = (page: Page, name: string) => page.getByRole("article", { name });

test.describe("WhatsApp", () => {
  let fake: FakeWhatsApp;
  test.beforeEach(async () => {
    fake = await startFakeWhatsApp();
  });
  test.afterEach(async () => {
    await fake.close();
  });

  test("connect a WhatsApp number, send a test message, and disconnect it", async ({ page, seed, signIn, baseURL }) => {
    const name = unique("Support line");
    await signIn(seed.channels.admin);
    await openChannels(page);

    await page.getByRole("button", { name: "Connect WhatsApp" }).click();
    const dialog = page.getByRole("dialog", { name: "Connect a WhatsApp number" });
    await dialog.getByLabel("Name").fill(name);
    // A phone number id is digits: the server's refusal is shown at the field.
    await dialog.getByLabel("Phone number ID").fill("+55 11 98765");
    await dialog.getByLabel("Access token").fill("EAAG-test-token");
    await dialog.getByLabel("App secret").fill("app-secret-1");
    await dialog.getByLabel("Verify token").fill("verify-me");
    await dialog.getByLabel("API base URL").fill(fake.url);
    await dialog.getByLabel("Rate").fill("5");
    await dialog.getByRole("button", { name: "Connect WhatsApp" }).click();
    const phoneId = dialog.getByLabel("Phone number ID");
    await expect(phoneId).toHaveAttribute("aria-invalid", "true");
    await expect(phoneId).toHaveAccessibleDescription(/must be the numeric phone number id/);
    await expect(phoneId).toBeFocused();

    await phoneId.fill("106555123456");
    await dialog.getByRole("button", { name: "Connect WhatsApp" }).click();
    await expect(dialog).toHaveCount(0);
    await expect(page.getByRole("status").filter({ hasText: `WhatsApp channel “${name}” connected.` })).toBeVisible();

    const channel = card(page, name);
    await expect(channel).toContainText("106555123456");
    await expect(channel).toContainText(fake.url);
    await expect(channel).toContainText("5 per second at most");
    const secrets = channel.getByRole("list", { name: `Secrets of ${name}` });
    await expect(secrets).toContainText("Access token: set");
    await expect(secrets).toContainText("App secret: set");
    await expect(secrets).toContainText("Verify token: set");
    // The secrets themselves are never shown.
    await expect(page.getByText("EAAG-test-token")).toHaveCount(0);
    await expect(channel).toContainText(`${baseURL}/api/providers/whatsapp`);
    await expect(channel.getByRole("button", { name: `Copy the callback URL of ${name}` })).toBeVisible();

    // A test message: the provider's answer, accepted with its id.
    await channel.getByRole("button", { name: `Send a test message with ${name}` }).click();
    const send = page.getByRole("dialog", { name: `Send a test message with “${name}”` });
    await send.getByLabel("Phone number").fill("+1 555 010 6001");
    await send.getByRole("textbox", { name: "Text" }).fill("Hello from the channels test");
    await send.getByRole("button", { name: "Send test message" }).click();
    const answer = send.getByRole("region", { name: "Provider's answer" });
    await expect(answer).toContainText("Accepted by the provider");
    const [request] = await fake.waitForRequests(1);
    expect(request?.phoneNumberId).toBe("106555123456");
    expect(request?.body).toMatchObject({ to: "15550106001", type: "text", text: { body: "Hello from the channels test" } });
    expect(request?.headers.authorization).toBe("Bearer EAAG-test-token");
    await expect(answer).toContainText(request!.wamid!);
    await expect(answer).toContainText("+15550106001");

    // A refusal: the provider's error.
    fake.setMode({ kind: "graph_error", status: 400, code: 131030, message: "Recipient phone number not in allowed list" }, { times: 1 });
    await send.getByRole("button", { name: "Send test message" }).click();
    await expect(answer).toContainText("Refused by the provider");
    await expect(answer).toContainText("Recipient phone number not in allowed list");
    await expect(answer).toContainText("400");
    // A bad recipient is the server's refusal, at the field.
    await send.getByLabel("Phone number").fill("not a phone");
    await send.getByRole("button", { name: "Send test message" }).click();
    await expect(send.getByLabel("Phone number")).toHaveAttribute("aria-invalid", "true");
    await expect(answer).toBeEmpty();
    await send.getByRole("button", { name: "Close" }).click();
    await expect(send).toHaveCount(0);

    // Disconnect, confirmed.
    await channel.getByRole("button", { name: `Disconnect ${name}` }).click();
    const confirm = page.getByRole("alertdialog", { name: `Disconnect “${name}”?` });
    await expect(confirm.getByRole("button", { name: "Cancel" })).toBeFocused();
    await confirm.getByRole("button", { name: "Disconnect channel" }).click();
    await expect(confirm).toHaveCount(0);
    await expect(card(page, name)).toHaveCount(0);
    await expect(page.getByRole("status").filter({ hasText: `WhatsApp channel “${name}” disconnected.` })).toBeVisible();

    // Still listed among the disconnected ones, without actions.
    await page.getByLabel("Show disconnected channels").check();
    await expect(card(page, name)).toContainText("Disconnected");
    await expect(card(page, name).getByRole("button", { name: /Disconnect|Send a test message/ })).toHaveCount(0);
  });
});

test.describe("E-mail", () => {
  let sink: SmtpSink;
  test.beforeEach(async () => {
    sink = await startSmtpSink();
  });
  test.afterEach(async () => {
    // The server keeps its pooled SMTP connection open (idle pools close after 5 minutes), and
    // smtp-server waits up to 30 s for open connections before it drops them: stop listening
    // now and let that happen in the background.
    await Promise.race([sink.close(), new Promise((resolve) => setTimeout(resolve, 500))]);
  });

  test("connect an SMTP relay: field errors, the events token shown once, a test e-mail", async ({ page, seed, signIn, baseURL }) => {
    const name = unique("Receipts relay");
    await signIn(seed.channels.mailer);
    await openChannels(page);

    await page.getByRole("button", { name: "Connect e-mail" }).click();
    const dialog = page.getByRole("dialog", { name: "Connect an e-mail relay" });
    // Required fields are checked before asking the server.
    await dialog.getByRole("button", { name: "Connect E-mail" }).click();
    await expect(dialog.getByLabel("SMTP URL")).toHaveAccessibleDescription(/SMTP URL is required/);
    await expect(dialog.getByLabel("From address")).toHaveAccessibleDescription(/From address is required/);

    // Not an SMTP URL: the server's refusal, at the field.
    await dialog.getByLabel("Name").fill(name);
    await dialog.getByLabel("SMTP URL").fill(`http://127.0.0.1:${sink.port}`);
    await dialog.getByLabel("From address").fill("Receipts@Example.test");
    await dialog.getByRole("button", { name: "Connect E-mail" }).click();
    const smtp = dialog.getByLabel("SMTP URL");
    await expect(smtp).toHaveAttribute("aria-invalid", "true");
    await expect(smtp).toHaveAccessibleDescription(/must be an smtp:\/\/ or smtps:\/\/ URL/);
    await expect(dialog.getByLabel("From address")).not.toHaveAttribute("aria-invalid", "true");

    await smtp.fill(sink.url);
    await dialog.getByRole("button", { name: "Connect E-mail" }).click();

    // The events token, this once.
    const tokenDialog = page.getByRole("dialog", { name: "E-mail channel connected" });
    await expect(tokenDialog).toContainText("you will not see it again");
    await expect(tokenDialog).toContainText(`${baseURL}/api/providers/email/events`);
    const token = await tokenDialog.getByRole("textbox", { name: "Events token" }).inputValue();
    expect(token).toMatch(/^ch_[A-Za-z0-9_-]+\.[A-Za-z0-9]{40}$/);
    // It is the channel's real token: the events endpoint takes it (404: no such message), not a wrong one (401).
    const events = (bearer: string) =>
      page.request.post("/api/providers/email/events", {
        headers: { authorization: `Bearer ${bearer}` },
        data: { message_id: "msg_nothing", event: "delivered" },
      });
    expect((await events(token)).status()).toBe(404);
    expect((await events(`${token.slice(0, -1)}${token.endsWith("x") ? "y" : "x"}`)).status()).toBe(401);
    await tokenDialog.getByRole("button", { name: "Done" }).click();
    await expect(tokenDialog).toHaveCount(0);

    const channel = card(page, name);
    // D2: the domain lower-cased.
    await expect(channel).toContainText("Receipts@example.test");
    await expect(channel).toContainText(`smtp://127.0.0.1:${sink.port}`);
    await expect(channel.getByRole("list", { name: `Secrets of ${name}` })).toContainText("Events token: set");
    await expect(channel.getByRole("list", { name: `Secrets of ${name}` })).toContainText("SMTP URL: set");
    await expect(page.locator("body")).not.toContainText(token);
    await page.reload();
    await expect(card(page, name)).toBeVisible();
    await expect(page.locator("body")).not.toContainText(token);

    // A test e-mail reaches the relay.
    await card(page, name)
      .getByRole("button", { name: `Send a test message with ${name}` })
      .click();
    const send = page.getByRole("dialog", { name: `Send a test message with “${name}”` });
    await send.getByLabel("E-mail address").fill("Someone@Example.test");
    await send.getByRole("textbox", { name: "Text" }).fill("Relay check");
    await send.getByRole("button", { name: "Send test message" }).click();
    const answer = send.getByRole("region", { name: "Provider's answer" });
    await expect(answer).toContainText("Accepted by the provider");
    await expect(answer).toContainText(/<msg_\w+@example\.test>/);
    const [mail] = await sink.waitForMessages(1);
    expect(mail?.to).toEqual(["Someone@example.test"]);
    expect(mail?.raw).toContain("Relay check");
  });
});

test("support users see the channels without any control", async ({ page, seed, signIn }) => {
  await signIn(seed.channels.support);
  await openChannels(page);
  await expect(page.getByText("You have read-only access to this workspace's channels.")).toBeVisible();
  const seeded = card(page, seed.channels.seededChannel);
  await expect(seeded).toContainText("1065550000");
  await expect(seeded.getByRole("list", { name: `Secrets of ${seed.channels.seededChannel}` })).toContainText("Access token: set");
  await expect(page.getByRole("button", { name: "Connect WhatsApp" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Connect e-mail" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Connect SMS" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: /Send a test message/ })).toHaveCount(0);
  await expect(page.getByRole("button", { name: /Disconnect/ })).toHaveCount(0);

  // The server refuses them too.
  const response = await page.request.post("/api/trpc/channels.connect", {
    headers: { "x-svc-workspace": seed.channels.id, "content-type": "application/json" },
    data: { type: "whatsapp", phone_number_id: "1", access_token: "a", app_secret: "b", verify_token: "c" },
  });
  expect(response.ok()).toBe(false);
  const body = (await response.json()) as { error: { data: { type?: string } } };
  expect(body.error.data.type).toBe("forbidden");
});
