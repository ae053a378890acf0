import { generateKeyPairSync, randomUUID } from "node:crypto";
import { Resolver } from "node:dns/promises";
import { createRequire } from "node:module";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChannelDomain } from "../../server/channels/email/domain.ts";
import { api, fixtures } from "../support/client.ts";
import { dashboardMutation, dashboardQuery } from "../support/dashboard.ts";
import { startDnsServer, type DnsFixture } from "../support/dns-server.ts";
import { startSmtpSink, type SmtpSink } from "../support/smtp-sink.ts";
import { poller } from "../support/until.ts";

// D74 through the whole service, on both engines: a channel connected from the dashboard with
// a DKIM selector, a live e-mail sent through the API and the pipeline to a real SMTP server,
// and a standard verifier (mailauth) that finds the signature valid against the record the
// dashboard lists, served by a real DNS server (dns2) in this test; SPF and DMARC pass too.

type Authenticated = {
  dkim: { results: { status: { result: string }; signingDomain?: string; selector?: string }[] };
  spf: { status: { result: string } };
  dmarc: { status: { result: string } };
};
const { authenticate } = createRequire(import.meta.url)("mailauth") as {
  authenticate(message: string, options: Record<string, unknown>): Promise<Authenticated>;
};

const ws = fixtures().dkim!;
const other = fixtures().dkimOther!;
const live = api(ws.keys.live);
const until = poller(20_000);
const FROM = "news@signed.example";
let smtp: SmtpSink;
let dns: DnsFixture;
let channelId = "";

beforeAll(async () => {
  smtp = await startSmtpSink();
  dns = await startDnsServer();
  ({ channel_id: channelId } = await dashboardMutation<{ channel_id: string }>(ws.id, "channels.connect", {
    type: "email",
    smtp_url: smtp.url,
    from: FROM,
    bounce_domain: "bounces.signed.example",
    dkim_selector: "api2026",
  }));
});
afterAll(async () => {
  await smtp?.close();
  await dns?.close();
});

/** dashboardMutation's failure as the error body's `data` (code, param). */
async function refusal(fn: () => Promise<unknown>): Promise<{ status: number; code: string; param: string | null }> {
  const err = await fn().then(
    () => null,
    (e: Error) => e,
  );
  expect(err).not.toBeNull();
  const [, status, body] = /^[\w.]+: (\d+) (.*)$/s.exec(err!.message) ?? [];
  const data = (JSON.parse(body!) as { data: { code: string; param: string | null } }).data;
  return { status: Number(status), code: data.code, param: data.param };
}

describe("a live e-mail of a channel with a DKIM selector", () => {
  it("carries a signature mailauth verifies against the record the dashboard lists; SPF and DMARC pass as listed", async () => {
    const domain = await dashboardQuery<ChannelDomain>(ws.id, "channels.domain", { channel_id: channelId });
    expect(domain.records.map((r) => [r.kind, r.type, r.name])).toEqual([
      ["dkim", "TXT", "api2026._domainkey.signed.example"],
      ["spf", "TXT", "bounces.signed.example"],
      ["dmarc", "TXT", "_dmarc.signed.example"],
      ["mx", "MX", "bounces.signed.example"],
    ]);
    for (const r of domain.records) {
      if (r.type === "TXT") dns.txt(r.name, r.value);
      else dns.mx(r.name, { priority: 10, exchange: r.value.split(" ")[1]! });
    }

    const email = `dkim.${randomUUID().slice(0, 8)}@example.org`;
    const res = await live.post("/messages", { channel: "email", to: { email }, email: { subject: "Signed", html: "<p>Hello</p>" } });
    expect(res.status).toBe(202);
    const id = res.body.id as string;
    await until(
      () => live.get(`/messages/${id}`),
      (r) => r.body.status === "sent",
    );
    const mail = smtp.messages.find((m) => m.raw.includes(`<${id}@signed.example>`));
    expect(mail).toBeDefined();

    const resolver = new Resolver({ timeout: 2000, tries: 1 });
    resolver.setServers([dns.server]);
    const result = await authenticate(mail!.raw, {
      ip: "127.0.0.1",
      helo: "relay.example.net",
      sender: mail!.from,
      mta: "mx.example.org",
      disableArc: true,
      disableBimi: true,
      resolver: (name: string, type: string) => resolver.resolve(name, type),
    });
    expect(result.dkim.results).toHaveLength(1);
    expect(result.dkim.results[0]).toMatchObject({ status: { result: "pass" }, signingDomain: "signed.example", selector: "api2026" });
    expect(result.spf.status.result).toBe("pass");
    expect(result.dmarc.status.result).toBe("pass");
  });

  it("the channel lists its key as set, never its value", async () => {
    const channels = await dashboardQuery<{ id: string; secrets_set: string[]; settings: Record<string, string> }[]>(
      ws.id,
      "channels.list",
      undefined,
    );
    const channel = channels.find((c) => c.id === channelId)!;
    expect(channel.secrets_set).toContain("dkim_private_key");
    expect(channel.settings.dkim_selector).toBe("api2026");
    expect(JSON.stringify(channels)).not.toContain("PRIVATE KEY");
  });
});

describe("bad input", () => {
  const base = { type: "email", smtp_url: "smtp://127.0.0.1:2525", from: FROM };

  it.each([
    {
      what: "a key that is not PEM",
      input: { dkim_selector: "s1", dkim_private_key: "not a key" },
      code: "parameter_invalid",
      param: "dkim_private_key",
    },
    {
      what: "an Ed25519 key",
      input: { dkim_selector: "s1", dkim_private_key: generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }) },
      code: "parameter_invalid",
      param: "dkim_private_key",
    },
    { what: "a key without a selector", input: { dkim_private_key: "x" }, code: "parameter_missing", param: "dkim_selector" },
    { what: "a selector with a space", input: { dkim_selector: "my selector" }, code: "parameter_invalid", param: "dkim_selector" },
  ])("$what: 400 with its param, and no channel", async ({ input, code, param }) => {
    const before = (await dashboardQuery<unknown[]>(other.id, "channels.list", undefined)).length;
    expect(await refusal(() => dashboardMutation(other.id, "channels.connect", { ...base, ...input }))).toEqual({
      status: 400,
      code,
      param,
    });
    expect((await dashboardQuery<unknown[]>(other.id, "channels.list", undefined)).length).toBe(before);
  });

  it("another workspace's channel is not found, before any DNS lookup", async () => {
    expect(await refusal(() => dashboardQuery(other.id, "channels.domain", { channel_id: channelId }))).toEqual({
      status: 404,
      code: "resource_missing",
      param: "channel_id",
    });
    const queries = dns.queries();
    expect(await refusal(() => dashboardMutation(other.id, "channels.dnsCheck", { id: channelId }))).toEqual({
      status: 404,
      code: "resource_missing",
      param: "id",
    });
    expect(dns.queries()).toBe(queries);
  });
});
