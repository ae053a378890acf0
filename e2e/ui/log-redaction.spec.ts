import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test as base } from "@playwright/test";
import { freePort } from "../support/free-port.ts";
import { startServer, type RunningServer } from "../support/server.ts";
import { contactRows, openListedContact, searchContacts } from "./fixtures/contacts.ts";
import { searchMessages } from "./fixtures/messages.ts";
import { expect, signIn } from "./fixtures/test.ts";

// D54: the server's log carries no phone number or e-mail address, whichever door they came
// through: the dashboard's tRPC GETs (their input is URL-encoded JSON in the URL), its page
// URLs and the public API's. A server of its own, logging every request (LOG_LEVEL=info) to a
// pipe this test reads, serves a whole dashboard session in Chromium, then its whole output
// is searched for the session's phones and e-mails in every form they could take.

const test = base.extend<object, { server: RunningServer }>({
  server: [
    async ({}, use) => {
      const dataDir = mkdtempSync(join(tmpdir(), "svc-redact-"));
      const port = await freePort();
      const server = await startServer({
        DATA_DIR: dataDir,
        DATABASE_URL: undefined,
        PORT: String(port),
        APP_URL: `http://127.0.0.1:${port}`,
        LOG_LEVEL: "info",
        PIPELINE: "inline",
      });
      await use(server);
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
    { scope: "worker", timeout: 300_000 },
  ],
});

const PHONE = { typed: "+55 (11) 98765-4321", e164: "+5511987654321", digits: "5511987654321", national: "11987654321" };
const EMAIL = { typed: "Ana.Redact@Example.ORG", lower: "ana.redact@example.org", partial: "ana.redact@exam" };
const SECOND = { e164: "+15550107788", typed: "+1 555 010 7788", email: "bruno.redact@example.net" };

/** Every way the session's phones and e-mails could be written into a log line. */
function forms(): string[] {
  const raw = [
    ...Object.values(PHONE),
    "98765-4321",
    "987654321",
    ...Object.values(EMAIL),
    SECOND.e164,
    SECOND.typed,
    SECOND.email,
    "15550107788",
    "ana.redact",
    "bruno.redact",
  ];
  const encoded = raw.flatMap((s) => [encodeURIComponent(s), encodeURIComponent(JSON.stringify(s)), JSON.stringify(s).slice(1, -1)]);
  return [...new Set([...raw, ...encoded, ...raw.map((s) => s.toLowerCase())])];
}

test("a dashboard session and API calls with phones and e-mails leave none of them in the server's log", async ({
  browser,
  server,
}, testInfo) => {
  test.setTimeout(300_000);
  const banner = server.output();
  const user = { email: /Sign in as (\S+) \//.exec(banner)![1]!, password: /Sign in as \S+ \/ (\S+)/.exec(banner)![1]! };
  const testKey = /Test key: (\S+)/.exec(banner)![1]!;
  const context = await browser.newContext({ baseURL: server.url });
  const page = await context.newPage();
  await signIn(page, user);

  // The public API: a contact created and found by phone and e-mail, and test messages to both.
  const auth = { authorization: `Bearer ${testKey}` };
  expect(
    (
      await page.request.post("/api/v1/contacts", {
        headers: auth,
        data: { phone: SECOND.typed, email: SECOND.email, name: "Bruno Redact" },
      })
    ).status(),
  ).toBe(200);
  for (const query of [`phone=${encodeURIComponent(SECOND.typed)}`, `email=${encodeURIComponent(SECOND.email)}`]) {
    expect((await page.request.get(`/api/v1/contacts?${query}`, { headers: auth })).status()).toBe(200);
  }
  // A phone in a path (there, no contact has that id).
  expect((await page.request.get(`/api/v1/contacts/${encodeURIComponent(SECOND.e164)}`, { headers: auth })).status()).toBe(404);

  // The dashboard: a new contact through its form…
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Contacts" }).click();
  await page.getByRole("button", { name: "New contact" }).click();
  const dialog = page.getByRole("dialog", { name: "New contact" });
  await dialog.getByLabel("Name", { exact: true }).fill("Ana Redact");
  await dialog.getByLabel("Phone", { exact: true }).fill(PHONE.typed);
  await dialog.getByLabel("E-mail", { exact: true }).fill(EMAIL.typed);
  await dialog.getByRole("button", { name: "Create contact" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Ana Redact" })).toBeVisible();
  expect(
    (
      await page.request.post("/api/v1/messages", {
        headers: auth,
        data: { channel: "whatsapp", to: { phone: PHONE.e164 }, whatsapp: { body: "Hello" } },
      })
    ).status(),
  ).toBe(202);
  expect(
    (
      await page.request.post("/api/v1/messages", {
        headers: auth,
        data: { channel: "email", to: { email: EMAIL.lower }, email: { subject: "Hi", html: "<p>Hello</p>" } },
      })
    ).status(),
  ).toBe(202);

  // …searched for by every form of its phone and e-mail, then opened from the list…
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Contacts" }).click();
  await expect(contactRows(page).first()).toBeVisible();
  for (const text of [PHONE.typed, PHONE.e164, PHONE.digits, PHONE.national, EMAIL.typed, EMAIL.partial, SECOND.e164]) {
    await searchContacts(page, text);
    await expect(contactRows(page)).toHaveCount(1);
  }
  await openListedContact(page, "Ana Redact");
  await expect(page.getByRole("heading", { level: 1, name: "Ana Redact" })).toBeVisible();

  // …and the messages searched for by phone and e-mail.
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Messages" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Messages" })).toBeVisible();
  for (const text of [PHONE.typed, PHONE.e164, EMAIL.typed, EMAIL.lower]) await searchMessages(page, text);
  await context.close();
  await server.stop(); // every line written out

  const log = server.output();
  writeFileSync(testInfo.outputPath("server.log"), log); // kept beside the test's results, to read when it fails
  const requests = log.split("\n").filter((line) => line.includes('"msg":"request"'));
  // The log has the session's requests, the searches among them, with what they held redacted…
  const count = (...parts: string[]) => requests.filter((line) => parts.every((part) => line.includes(part))).length;
  expect(count("/api/trpc/contacts.search", "[phone]")).toBeGreaterThanOrEqual(5); // one a search: distinct inputs
  expect(count("/api/trpc/contacts.search", "[email]")).toBeGreaterThanOrEqual(2);
  expect(count("/api/trpc/messages.search", "[phone]")).toBeGreaterThanOrEqual(1); // its forms may be one search
  expect(count("/api/trpc/messages.search", "[email]")).toBeGreaterThanOrEqual(1);
  expect(count("/api/v1/contacts", "[phone]")).toBe(2);
  expect(count("/api/v1/contacts", "[email]")).toBe(1);
  // …and none of the phones and e-mails, in any form, anywhere in it.
  const lower = log.toLowerCase();
  const found = forms().filter((form) => lower.includes(form.toLowerCase()));
  expect(found, found.map((f) => log.split("\n").find((line) => line.toLowerCase().includes(f.toLowerCase()))).join("\n")).toEqual([]);
});
