import type { Page } from "@playwright/test";
import { checkPageAtWidths } from "./fixtures/page-checks.ts";
import { expect, test } from "./fixtures/test.ts";
import { UI_DOMAIN } from "./fixtures/target.ts";

// D74: an e-mail channel's domain section. The "Domain" workspace's channel signs with a DKIM
// key made by the global setup, which published on its own DNS server (the server's
// DNS_SERVERS) the DKIM key and a DMARC record as listed, an SPF record for another relay, and
// no MX for the bounce domain: Check now shows verified, mismatch and missing.

async function openChannels(page: Page): Promise<void> {
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Channels" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Channels" })).toBeVisible();
  await expect(page.getByRole("list", { name: "Channels" })).toBeVisible();
}

const fromDomain = UI_DOMAIN.from.split("@")[1]!;

test("an admin sees the records to publish, checks them now, and sees each one's state", async ({ page, seed, signIn }) => {
  const { channel: name } = seed.domain;
  await signIn(seed.domain.admin);
  await openChannels(page);
  const card = page.getByRole("article", { name });
  const section = card.getByRole("region", { name: "Domain" });
  await expect(card).toContainText(`selector ${UI_DOMAIN.selector}`);

  // The records, each with its type, name, value and copy buttons.
  const records = section.getByRole("list", { name: `DNS records of ${name}` });
  await expect(records.getByRole("listitem").filter({ has: page.getByRole("heading", { level: 4 }) })).toHaveCount(4);
  const record = (title: string) => records.getByRole("listitem").filter({ has: page.getByRole("heading", { level: 4, name: title }) });
  await expect(record("DKIM")).toContainText(`${UI_DOMAIN.selector}._domainkey.${fromDomain}`);
  await expect(record("DKIM")).toContainText(/v=DKIM1; k=rsa; p=MIIBIjAN/);
  await expect(record("SPF")).toContainText(UI_DOMAIN.bounceDomain);
  await expect(record("SPF")).toContainText("v=spf1 ip4:127.0.0.1 ~all");
  await expect(record("DMARC")).toContainText(`_dmarc.${fromDomain}`);
  await expect(record("MX")).toContainText(UI_DOMAIN.bounceDomain);
  for (const title of ["DKIM", "SPF", "DMARC", "MX"]) {
    await expect(record(title).getByRole("button", { name: `Copy the name of the ${title} record of ${name}` })).toBeVisible();
    await expect(record(title).getByRole("button", { name: `Copy the value of the ${title} record of ${name}` })).toBeVisible();
  }
  // Copying puts the exact value on the clipboard.
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  await record("SPF")
    .getByRole("button", { name: `Copy the value of the SPF record of ${name}` })
    .click();
  await expect(record("SPF").getByRole("status").filter({ hasText: "Copied." })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe("v=spf1 ip4:127.0.0.1 ~all");

  // Check now: each record's state in words, looked up on the DNS server.
  await section.getByRole("button", { name: `Check now the DNS records of ${name}` }).click();
  await expect(section.getByRole("status").filter({ hasText: "2 of 4 records verified." })).toBeVisible();
  await expect(record("DKIM")).toContainText("Verified: published as listed.");
  await expect(record("DMARC")).toContainText("Verified: published as listed.");
  await expect(record("SPF")).toContainText("Mismatch: something else is published at this name.");
  await expect(record("SPF").getByRole("list", { name: `Published at ${UI_DOMAIN.bounceDomain}` })).toContainText(
    "v=spf1 include:_spf.other-relay.example ~all",
  );
  await expect(record("MX")).toContainText("Missing: nothing is published at this name yet.");

  // D92: the sender's readiness, one line per requirement and one verdict: SPF allows another
  // relay, so the channel is not ready; DKIM verified aligns DMARC.
  const readiness = section.getByRole("region", { name: "Sender readiness" });
  await expect(readiness.getByLabel(`${name} is not ready to send bulk mail`)).toHaveText("Not ready");
  const requirement = (label: string) => readiness.getByRole("listitem").filter({ has: page.getByText(label, { exact: true }) });
  await expect(requirement("DKIM signature")).toContainText("DKIM signature: yes.");
  await expect(requirement("SPF")).toContainText(`SPF: no. Publish the SPF record below at ${UI_DOMAIN.bounceDomain}`);
  await expect(requirement("DMARC published")).toContainText("DMARC published: yes. Policy: none.");
  await expect(requirement("DMARC aligned")).toContainText(
    `DMARC aligned: yes. A verified DKIM signature or SPF domain belongs to ${fromDomain}.`,
  );

  await checkPageAtWidths(page, "email-domain-checked");
});

test("support staff see the records and may check them too", async ({ page, seed, signIn }) => {
  await signIn(seed.domain.support);
  await openChannels(page);
  const section = page.getByRole("article", { name: seed.domain.channel }).getByRole("region", { name: "Domain" });
  await section.getByRole("button", { name: `Check now the DNS records of ${seed.domain.channel}` }).click();
  await expect(section.getByRole("status").filter({ hasText: "2 of 4 records verified." })).toBeVisible();
});
