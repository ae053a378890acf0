import { generateKeyPairSync } from "node:crypto";
import { Resolver } from "node:dns/promises";
import { createRequire } from "node:module";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { checkRecords, dkimKey, domainRecords, generateDkimKey, type DkimKey } from "../../server/channels/email/domain.ts";
import { ZConnectEmailRequest } from "../../server/channels/email/contract.ts";
import { AppError } from "../../server/lib/errors.ts";
import type { ChannelConfig, OutboundMessage } from "../../server/providers/provider.ts";
import { providerFor } from "../../server/channels/server-registry.ts";
import { closeSmtpTransports } from "../../server/providers/smtp.ts";
import { startDnsServer, type DnsFixture } from "../support/dns-server.ts";
import { startSmtpSink, type SmtpSink } from "../support/smtp-sink.ts";

// D74/D85: an e-mail channel's DKIM signature and its domain's DNS records, through real
// parts: a real DNS server on loopback (dns2) behind DNS_SERVERS, a real SMTP server
// (smtp-server) receiving the mail, and a standard verifier (mailauth) checking the signature
// against the key that DNS server publishes, with SPF and DMARC as published from our list.

type AuthResult = {
  status: { result: string; comment?: string };
  signingDomain?: string;
  selector?: string;
  signingHeaders?: { keys: string };
};
type Authenticated = {
  dkim: { results: AuthResult[] };
  spf: { status: { result: string } };
  dmarc: { status: { result: string } };
};
const { authenticate } = createRequire(import.meta.url)("mailauth") as {
  authenticate(message: string, options: Record<string, unknown>): Promise<Authenticated>;
};

let dns: DnsFixture;
let sink: SmtpSink;
let resolver: Resolver;
const client = providerFor("email");
const FROM = "news@shop.example.com";

let seq = 0;
const message = (): OutboundMessage => ({
  id: `msg_0mwq18yo3jJFvnIzUvqD${String(++seq).padStart(2, "0")}`,
  workspaceId: "acme-k3j9x2",
  contactId: "ct_1",
  to: "ana@example.org",
  content: { subject: "Your order", html: "<p>Hello <b>Ana</b></p>" },
});

function emailChannel(key: DkimKey | null, settings: Record<string, string> = {}): ChannelConfig {
  return {
    id: "ch_dkim",
    workspaceId: "acme-k3j9x2",
    type: "email",
    externalId: FROM,
    settings: {
      from: FROM,
      smtp_server: "smtp://127.0.0.1:2525",
      tracking_base_url: "https://track.example.com",
      ...(key ? { dkim_selector: "svc2026", dkim_public_key: key.publicKey } : {}),
      ...settings,
    },
    secrets: { smtp_url: sink.url, events_token: "ch_dkim.x", ...(key ? { dkim_private_key: key.privateKeyPem } : {}) },
    ratePerSecond: 10,
  };
}

/** Publishes every record the channel lists, as its owner would. */
function publish(channel: ChannelConfig): void {
  for (const record of domainRecords(channel.settings)) {
    if (record.type === "TXT") dns.txt(record.name, record.value);
    else {
      const [priority, exchange] = record.value.split(" ");
      dns.mx(record.name, { priority: Number(priority), exchange: exchange! });
    }
  }
}

/** mailauth as a receiving server runs it: the relay's address and MAIL FROM, DNS from the fixture. */
async function received(sent: { from: string | null; raw: string }): Promise<Authenticated> {
  return authenticate(sent.raw, {
    ip: "127.0.0.1",
    helo: "relay.example.net",
    sender: sent.from,
    mta: "mx.example.org",
    disableArc: true,
    disableBimi: true,
    resolver: (name: string, type: string) => resolver.resolve(name, type),
  });
}

beforeAll(async () => {
  dns = await startDnsServer();
  process.env.DNS_SERVERS = dns.server; // read by env() at the first check, below
  sink = await startSmtpSink();
  resolver = new Resolver({ timeout: 2000, tries: 1 });
  resolver.setServers([dns.server]);
});
afterAll(async () => {
  closeSmtpTransports();
  await sink.close();
  await dns.close();
});
beforeEach(() => {
  sink.reset();
  dns.reset();
});

describe("every mail of a channel with a DKIM key is signed (D74)", () => {
  it("a generated key: mailauth verifies the signature against the published key; SPF and DMARC pass as published", async () => {
    const channel = emailChannel(await generateDkimKey());
    publish(channel);
    expect(await client.send(channel, message())).toMatchObject({ outcome: "accepted" });
    const [sent] = await sink.waitForMessages(1);
    const result = await received(sent!);
    expect(result.dkim.results).toHaveLength(1);
    const [dkim] = result.dkim.results;
    expect(dkim!.status.result, dkim!.status.comment).toBe("pass");
    expect(dkim).toMatchObject({ signingDomain: "shop.example.com", selector: "svc2026" });
    // RFC 8058: the one-click unsubscribe headers are covered by the signature; so is Feedback-ID (D92).
    expect(dkim!.signingHeaders!.keys.toLowerCase().split(": ")).toEqual(
      expect.arrayContaining(["list-unsubscribe", "list-unsubscribe-post", "feedback-id"]),
    );
    expect(result.spf.status.result).toBe("pass");
    expect(result.dmarc.status.result).toBe("pass");
  });

  it("with a bounce domain: SPF and MX on it, the return path aligned, DMARC passes", async () => {
    const channel = emailChannel(await generateDkimKey(), { bounce_domain: "bounces.shop.example.com" });
    publish(channel);
    await client.send(channel, message());
    const [sent] = await sink.waitForMessages(1);
    expect(sent!.from).toMatch(/^bounces\+msg_\w+@bounces\.shop\.example\.com$/);
    const result = await received(sent!);
    expect(result.dkim.results[0]!.status.result).toBe("pass");
    expect(result.spf.status.result).toBe("pass");
    expect(result.dmarc.status.result).toBe("pass");
  });

  it("a given PKCS#1 key signs as well", async () => {
    const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const key = dkimKey(privateKey.export({ type: "pkcs1", format: "pem" }).toString());
    const channel = emailChannel(key);
    publish(channel);
    await client.send(channel, message());
    const [sent] = await sink.waitForMessages(1);
    expect((await received(sent!)).dkim.results[0]!.status.result).toBe("pass");
  });

  it("a verifier fails the signature when DNS publishes another key (the check is real)", async () => {
    const channel = emailChannel(await generateDkimKey());
    const other = emailChannel(await generateDkimKey());
    publish(other);
    await client.send(channel, message());
    const [sent] = await sink.waitForMessages(1);
    expect((await received(sent!)).dkim.results[0]!.status.result).not.toBe("pass");
  });

  it("a channel without a DKIM key sends unsigned mail", async () => {
    await client.send(emailChannel(null), message());
    const [sent] = await sink.waitForMessages(1);
    expect(sent!.raw).not.toMatch(/^DKIM-Signature:/im);
  });
});

describe("the records to publish (D85)", () => {
  it("DKIM and DMARC on the From domain; SPF there too without a bounce domain", () => {
    const channel = emailChannel({ privateKeyPem: "", publicKey: "MIIBIjAN", keyType: "rsa" });
    expect(domainRecords(channel.settings)).toEqual([
      { kind: "dkim", type: "TXT", name: "svc2026._domainkey.shop.example.com", value: "v=DKIM1; k=rsa; p=MIIBIjAN" },
      { kind: "spf", type: "TXT", name: "shop.example.com", value: "v=spf1 ip4:127.0.0.1 ~all" },
      { kind: "dmarc", type: "TXT", name: "_dmarc.shop.example.com", value: "v=DMARC1; p=none" },
    ]);
  });

  it("SPF and MX on the bounce domain when there is one; a relay host name is allowed by its address records", () => {
    const settings = { from: FROM, smtp_server: "smtps://smtp.relay.example.net:465", bounce_domain: "bounces.shop.example.com" };
    expect(domainRecords(settings)).toEqual([
      { kind: "spf", type: "TXT", name: "bounces.shop.example.com", value: "v=spf1 a:smtp.relay.example.net ~all" },
      { kind: "dmarc", type: "TXT", name: "_dmarc.shop.example.com", value: "v=DMARC1; p=none" },
      // The service's own host (APP_URL) receives the bounces.
      {
        kind: "mx",
        type: "MX",
        name: "bounces.shop.example.com",
        value: `10 ${new URL(process.env.APP_URL ?? "http://localhost:3000").hostname}`,
      },
    ]);
  });
});

describe("the DNS check: verified, missing, mismatch (D74)", () => {
  const settings = (key: DkimKey) => ({
    from: FROM,
    smtp_server: "smtp://127.0.0.1:2525",
    bounce_domain: "bounces.shop.example.com",
    dkim_selector: "svc2026",
    dkim_public_key: key.publicKey,
  });
  const statuses = async (records: ReturnType<typeof domainRecords>) =>
    Object.fromEntries((await checkRecords(records)).map((r) => [r.kind, r.status]));

  it("nothing published: every record is missing", async () => {
    const records = domainRecords(settings(await generateDkimKey()));
    const checked = await checkRecords(records);
    expect(checked.map((r) => [r.kind, r.status, r.found, r.error])).toEqual([
      ["dkim", "missing", [], null],
      ["spf", "missing", [], null],
      ["dmarc", "missing", [], null],
      ["mx", "missing", [], null],
    ]);
  });

  it("published as listed: every record is verified (the DKIM key, longer than one TXT string, joined)", async () => {
    const records = domainRecords(settings(await generateDkimKey()));
    for (const r of records) {
      if (r.type === "TXT") dns.txt(r.name, "google-site-verification=abc", r.value);
      else dns.mx(r.name, { priority: 10, exchange: r.value.split(" ")[1]! });
    }
    const checked = await checkRecords(records);
    expect(checked.map((r) => r.status)).toEqual(["verified", "verified", "verified", "verified"]);
    expect(checked[0]!.found).toContain(records[0]!.value);
  });

  it("the owner's own choices stay verified: another DMARC policy, SPF with more mechanisms, DKIM with more tags", async () => {
    const key = await generateDkimKey();
    const records = domainRecords(settings(key));
    dns.txt("svc2026._domainkey.shop.example.com", `v=DKIM1; t=s; k=rsa; p=${key.publicKey}`);
    dns.txt("bounces.shop.example.com", "v=spf1 include:_spf.example.net +ip4:127.0.0.1 -all");
    dns.txt("_dmarc.shop.example.com", "v=DMARC1; p=reject; rua=mailto:dmarc@shop.example.com");
    dns.mx(
      "bounces.shop.example.com",
      { priority: 5, exchange: "backup.example.net" },
      { priority: 20, exchange: records[3]!.value.split(" ")[1]! },
    );
    expect(await statuses(records)).toEqual({ dkim: "verified", spf: "verified", dmarc: "verified", mx: "verified" });
  });

  it("published otherwise: another key, an SPF without the relay or twice, no DMARC policy, another MX host: mismatch", async () => {
    const records = domainRecords(settings(await generateDkimKey()));
    dns.txt("svc2026._domainkey.shop.example.com", `v=DKIM1; k=rsa; p=${(await generateDkimKey()).publicKey}`);
    dns.txt("bounces.shop.example.com", "v=spf1 include:_spf.example.net ~all");
    dns.txt("_dmarc.shop.example.com", "v=DMARC1; rua=mailto:dmarc@shop.example.com");
    dns.mx("bounces.shop.example.com", { priority: 10, exchange: "mx.elsewhere.example.net" });
    const checked = await checkRecords(records);
    expect(Object.fromEntries(checked.map((r) => [r.kind, r.status]))).toEqual({
      dkim: "mismatch",
      spf: "mismatch",
      dmarc: "mismatch",
      mx: "mismatch",
    });
    expect(checked[3]!.found).toEqual(["10 mx.elsewhere.example.net"]);

    // RFC 7208 3.2: two SPF records are an error even if one of them is right.
    dns.txt("bounces.shop.example.com", records[1]!.value, "v=spf1 -all");
    expect((await statuses(records)).spf).toBe("mismatch");
  });

  it("a DNS server that does not answer: the check ends within its bound and says why", async () => {
    const records = domainRecords(settings(await generateDkimKey()));
    dns.silence(true);
    const started = Date.now();
    const checked = await checkRecords(records, { deadlineMs: 1_500 });
    expect(Date.now() - started).toBeLessThan(5_000);
    // Not "missing": nothing says the record is unpublished (issue 46, D92's lookup_failed).
    for (const r of checked) {
      expect(r.status).toBe("lookup_failed");
      expect(r.error).toBe("the DNS server did not answer in time");
    }
    expect(dns.queries()).toBeGreaterThan(0);
  });
});

describe("bad DKIM input is refused with its parameter", () => {
  const refusal = (fn: () => unknown) => {
    try {
      fn();
    } catch (err) {
      expect(err).toBeInstanceOf(AppError);
      return { code: (err as AppError).code, param: (err as AppError).param, message: (err as AppError).message };
    }
    throw new Error("not refused");
  };
  const pem = (type: string, opts: object = {}) =>
    (generateKeyPairSync as unknown as (t: string, o: object) => { privateKey: { export(o: object): string | Buffer } })(type, opts)
      .privateKey.export({ type: "pkcs8", format: "pem" })
      .toString();

  it.each([
    { what: "text that is not PEM", key: "hello", message: /must be a PEM private key/ },
    {
      what: "a public key",
      key: generateKeyPairSync("rsa", { modulusLength: 1024 }).publicKey.export({ type: "spki", format: "pem" }).toString(),
      message: /must be a PEM private key/,
    },
    {
      what: "a damaged PEM",
      key: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----",
      message: /not a readable PEM private key/,
    },
    { what: "an Ed25519 key", key: pem("ed25519"), message: /Ed25519 key: mail is signed with rsa-sha256/ },
    { what: "an EC key", key: pem("ec", { namedCurve: "P-256" }), message: /must be an RSA key \(this one is ec\)/ },
    { what: "a 512-bit RSA key", key: pem("rsa", { modulusLength: 512 }), message: /1024 to 4096 bits \(this one has 512\)/ },
    {
      what: "an encrypted key",
      key: generateKeyPairSync("rsa", { modulusLength: 1024 })
        .privateKey.export({ type: "pkcs8", format: "pem", cipher: "aes-256-cbc", passphrase: "secret" })
        .toString(),
      message: /encrypted with a passphrase/,
    },
  ])("$what", ({ key, message: expected }) => {
    const refused = refusal(() => dkimKey(key));
    expect(refused).toMatchObject({ code: "parameter_invalid", param: "dkim_private_key" });
    expect(refused.message).toMatch(expected);
  });

  it.each(["bad selector", "svc_2026", "-svc", "svc.", "a".repeat(64)])("the selector %j", (selector) => {
    const parsed = ZConnectEmailRequest.safeParse({
      type: "email",
      smtp_url: "smtp://relay.example.net",
      from: FROM,
      dkim_selector: selector,
    });
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues[0]!.path).toEqual(["dkim_selector"]);
  });

  it("a selector of several labels is one", () => {
    expect(
      ZConnectEmailRequest.parse({ type: "email", smtp_url: "smtp://relay.example.net", from: FROM, dkim_selector: "Mail.2026" })
        .dkim_selector,
    ).toBe("mail.2026");
  });
});
