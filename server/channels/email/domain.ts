import { createPrivateKey, createPublicKey, generateKeyPair, type KeyObject } from "node:crypto";
import { lookup, Resolver } from "node:dns/promises";
import { isIP } from "node:net";
import { promisify } from "node:util";
import { z } from "zod";
import type { Database } from "../../db/client.ts";
import { env } from "../../lib/env.ts";
import { getDomain } from "tldts";
import { invalid, notFound } from "../../lib/errors.ts";
import { DKIM_SECRET, DKIM_SETTINGS, domainOf } from "../../providers/dkim.ts";
import { settingsOf } from "../../providers/load-channel.ts";

// An e-mail channel's domain (D74, D85): its DKIM key, the DNS records its owner publishes
// (DKIM, SPF, DMARC, the bounce domain's MX) and their check by DNS lookups. One module for
// `svc channel dns`, the dashboard's domain section and the SMTP provider's signing.
//
// Mail is signed by providers/dkim.ts, with RSA only: nodemailer's DKIM signer (rsa-sha256) is what signs every mail,
// and it has no Ed25519 (RFC 8463) support. A given Ed25519 key is refused with that reason.

const MIN_RSA_BITS = 1024; // RFC 8301: verifiers ignore shorter keys
const MAX_RSA_BITS = 4096; // a longer key does not fit the usual DNS TXT limits
const GENERATED_RSA_BITS = 2048;

/** A channel's DKIM key: the private key to seal (PKCS#8 PEM) and the `p=` of its DNS record. */
export type DkimKey = { privateKeyPem: string; publicKey: string; keyType: "rsa" };

const keyOf = (privateKey: KeyObject): DkimKey => ({
  privateKeyPem: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
  publicKey: createPublicKey(privateKey).export({ type: "spki", format: "der" }).toString("base64"),
  keyType: "rsa",
});

/**
 * A given private key, checked: a PEM RSA key (PKCS#1 or PKCS#8, unencrypted) of 1024 to 4096
 * bits. Anything else is `400 parameter_invalid` with `param` (the CLI names its flag).
 */
export function dkimKey(pem: string, param = DKIM_SECRET): DkimKey {
  const text = pem.trim();
  const bad = (why: string) => invalid("parameter_invalid", `The DKIM private key ${why}`, param);
  if (/-----BEGIN ENCRYPTED PRIVATE KEY-----/.test(text)) throw bad("is encrypted with a passphrase: give the key unencrypted.");
  if (!/^-----BEGIN (RSA |EC |)PRIVATE KEY-----[\s\S]+-----END (RSA |EC |)PRIVATE KEY-----$/.test(text)) {
    throw bad("must be a PEM private key (-----BEGIN PRIVATE KEY----- or -----BEGIN RSA PRIVATE KEY-----).");
  }
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: text, format: "pem" });
  } catch {
    throw bad("is not a readable PEM private key.");
  }
  if (key.asymmetricKeyType === "ed25519") {
    throw bad("is an Ed25519 key: mail is signed with rsa-sha256, give an RSA key (2048 bits recommended).");
  }
  if (key.asymmetricKeyType !== "rsa") throw bad(`must be an RSA key (this one is ${key.asymmetricKeyType ?? "of another type"}).`);
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
  if (bits < MIN_RSA_BITS || bits > MAX_RSA_BITS) {
    throw bad(`must be an RSA key of ${MIN_RSA_BITS} to ${MAX_RSA_BITS} bits (this one has ${bits}); 2048 is recommended.`);
  }
  return keyOf(key);
}

/** A new 2048-bit RSA key for a channel that gave none. */
export async function generateDkimKey(): Promise<DkimKey> {
  const { privateKey } = await promisify(generateKeyPair)("rsa", { modulusLength: GENERATED_RSA_BITS });
  return keyOf(privateKey);
}

// The records ------------------------------------------------------------------------------

export const RECORD_KINDS = ["dkim", "spf", "dmarc", "mx"] as const;
export type RecordKind = (typeof RECORD_KINDS)[number];
/** `lookup_failed`: DNS did not answer (a timeout, a refusal, no server reached): nothing is known of the record. */
export const RECORD_STATUSES = ["verified", "missing", "mismatch", "lookup_failed"] as const;
export type RecordStatus = (typeof RECORD_STATUSES)[number];

export const ZDnsRecord = z.object({
  kind: z.enum(RECORD_KINDS).describe("What the record is for."),
  type: z.enum(["TXT", "MX"]),
  name: z.string().describe("The record's full name."),
  value: z.string().describe("The value to publish (MX: priority and host)."),
});
export type DnsRecord = z.infer<typeof ZDnsRecord>;

export const ZCheckedRecord = ZDnsRecord.extend({
  status: z.enum(RECORD_STATUSES),
  found: z.array(z.string()).describe("What DNS answered at that name (TXT strings joined, MX as priority and host)."),
  error: z.string().nullable().describe("Why the lookup itself failed (a timeout, a refusal); null when DNS answered."),
});
export type CheckedRecord = z.infer<typeof ZCheckedRecord>;

export const ZChannelDomain = z.object({
  channel_id: z.string(),
  from_domain: z.string(),
  bounce_domain: z.string().nullable(),
  records: z.array(ZDnsRecord),
});
export type ChannelDomain = z.infer<typeof ZChannelDomain>;

export const DMARC_POLICIES = ["none", "quarantine", "reject"] as const;

export const ZChannelDomainCheck = ZChannelDomain.extend({
  records: z.array(ZCheckedRecord),
  dmarc: z.object({
    aligned: z
      .boolean()
      .describe(
        "Whether the From domain aligns (same organizational domain, or the exact domain where the DMARC record asks for strict alignment) with the DKIM signature's domain or the SPF domain, each verified.",
      ),
    policy: z.enum(DMARC_POLICIES).nullable().describe("The published DMARC record's `p=`; null when none is published."),
  }),
  ready: z.boolean().describe("True only when DKIM is verified, SPF passes, and DMARC is published and aligned."),
  checked_at: z.string(),
});
export type ChannelDomainCheck = z.infer<typeof ZChannelDomainCheck>;

/** The SPF mechanism that allows the channel's relay: its address, or its host's A/AAAA records. */
function spfMechanism(smtpServer: string | undefined): string | null {
  if (!smtpServer || !URL.canParse(smtpServer)) return null;
  const host = new URL(smtpServer).hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (!host) return null;
  const ip = isIP(host);
  return ip === 4 ? `ip4:${host}` : ip === 6 ? `ip6:${host}` : `a:${host}`;
}

/** Where bounces are received: the service's public host (APP_URL), the MX of the bounce domain. */
export function inboundHost(): string {
  return new URL(env().appUrl).hostname.toLowerCase();
}

/**
 * The records a channel's owner publishes (D85): DKIM at `<selector>._domainkey.<from
 * domain>`, DMARC at `_dmarc.<from domain>`, SPF and MX on the bounce domain, or SPF on the
 * From domain when the channel has none.
 */
export function domainRecords(settings: Record<string, string>): DnsRecord[] {
  const fromDomain = domainOf(settings.from ?? "");
  const bounceDomain = settings.bounce_domain ?? null;
  const records: DnsRecord[] = [];
  const selector = settings[DKIM_SETTINGS.selector];
  const publicKey = settings[DKIM_SETTINGS.publicKey];
  if (selector && publicKey) {
    records.push({ kind: "dkim", type: "TXT", name: `${selector}._domainkey.${fromDomain}`, value: `v=DKIM1; k=rsa; p=${publicKey}` });
  }
  const mechanism = spfMechanism(settings.smtp_server);
  if (mechanism) records.push({ kind: "spf", type: "TXT", name: bounceDomain ?? fromDomain, value: `v=spf1 ${mechanism} ~all` });
  records.push({ kind: "dmarc", type: "TXT", name: `_dmarc.${fromDomain}`, value: "v=DMARC1; p=none" });
  if (bounceDomain) records.push({ kind: "mx", type: "MX", name: bounceDomain, value: `10 ${inboundHost()}` });
  return records;
}

// The check ---------------------------------------------------------------------------------

/** Each query's wait and tries; all queries of a check end by `CHECK_DEADLINE_MS` at the latest. */
const QUERY_TIMEOUT_MS = 2_000;
const QUERY_TRIES = 2;
export const CHECK_DEADLINE_MS = 6_000;

/** DNS_SERVERS entries as `Resolver.setServers` takes them; host names are resolved first. */
async function resolverServers(entries: string[]): Promise<string[]> {
  return Promise.all(
    entries.map(async (entry) => {
      let host = entry;
      let port: string | undefined;
      const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
      if (bracketed) [, host = "", port] = bracketed;
      else if ((entry.match(/:/g) ?? []).length === 1) [host = "", port] = entry.split(":");
      if (!isIP(host)) host = (await lookup(host)).address;
      if (!port) return host;
      return isIP(host) === 6 ? `[${host}]:${port}` : `${host}:${port}`;
    }),
  );
}

type Answer = { found: string[]; error: string | null };

async function lookUp(resolver: Resolver, record: DnsRecord): Promise<Answer> {
  try {
    if (record.type === "MX") {
      const mx = await resolver.resolveMx(record.name);
      return { found: mx.map((m) => `${m.priority} ${m.exchange.replace(/\.$/, "").toLowerCase()}`), error: null };
    }
    const txt = await resolver.resolveTxt(record.name);
    return { found: txt.map((chunks) => chunks.join("")), error: null };
  } catch (err) {
    const code = (err as { code?: string }).code;
    // No such name, or no record of that type at it: nothing is published.
    if (code === "ENODATA" || code === "ENOTFOUND") return { found: [], error: null };
    const why: Record<string, string> = {
      ETIMEOUT: "the DNS server did not answer in time",
      ECANCELLED: "the DNS server did not answer in time",
      ESERVFAIL: "the DNS server failed (SERVFAIL)",
      EREFUSED: "the DNS server refused the query",
      ECONNREFUSED: "the DNS server could not be reached",
    };
    return { found: [], error: why[code ?? ""] ?? `the lookup failed (${code ?? "unknown error"})` };
  }
}

const tags = (value: string) =>
  new Map(
    value
      .split(";")
      .map((t) => t.trim())
      .filter(Boolean)
      .map((t) => {
        const eq = t.indexOf("=");
        return [
          t
            .slice(0, eq < 0 ? t.length : eq)
            .trim()
            .toLowerCase(),
          eq < 0 ? "" : t.slice(eq + 1).trim(),
        ] as const;
      }),
  );

/** Whether what DNS answered matches the record: the one rule of each kind. */
export function statusOf(record: DnsRecord, found: string[]): RecordStatus {
  if (found.length === 0) return "missing";
  switch (record.kind) {
    case "dkim": {
      // The published key must be the channel's; other tags (t=, n=, …) are the owner's.
      const expected = tags(record.value).get("p");
      return found.some((f) => (tags(f).get("p") ?? "").replace(/\s+/g, "") === expected) ? "verified" : "mismatch";
    }
    case "spf": {
      // RFC 7208 3.2: one SPF record at most; it must allow the relay.
      const spf = found.filter((f) => /^v=spf1(\s|$)/i.test(f.trim()));
      if (spf.length === 0) return "missing";
      const mechanism = record.value.split(/\s+/)[1]!.toLowerCase();
      const terms = spf[0]!.toLowerCase().split(/\s+/);
      return spf.length === 1 && terms.some((t) => t.replace(/^\+/, "") === mechanism) ? "verified" : "mismatch";
    }
    case "dmarc": {
      // Any one valid DMARC record: the policy (none, quarantine, reject) is the owner's choice.
      const dmarc = found.filter((f) => /^v=DMARC1\s*(;|$)/i.test(f.trim()));
      return dmarc.length === 1 && /^(none|quarantine|reject)$/i.test(tags(dmarc[0]!).get("p") ?? "") ? "verified" : "mismatch";
    }
    case "mx": {
      const host = record.value.split(" ")[1]!;
      return found.some((f) => f.split(" ")[1] === host) ? "verified" : "mismatch";
    }
  }
}

/**
 * Looks each record up, all at once, with `DNS_SERVERS` (or the system's resolvers). Bounded:
 * every query gives up after its tries, and whatever is still pending at the deadline is
 * cancelled and reported as a failed lookup.
 */
export async function checkRecords(records: DnsRecord[], opts: { deadlineMs?: number } = {}): Promise<CheckedRecord[]> {
  const resolver = new Resolver({ timeout: QUERY_TIMEOUT_MS, tries: QUERY_TRIES });
  const servers = env().dnsServers;
  if (servers.length > 0) resolver.setServers(await resolverServers(servers));
  const deadline = setTimeout(() => resolver.cancel(), opts.deadlineMs ?? CHECK_DEADLINE_MS);
  try {
    const answers = await Promise.all(records.map((record) => lookUp(resolver, record)));
    return records.map((record, i) => {
      const { found, error } = answers[i]!;
      // A lookup that failed says nothing about the record: not "missing" (D92).
      return { ...record, status: error ? "lookup_failed" : statusOf(record, found), found, error };
    });
  } finally {
    clearTimeout(deadline);
  }
}

// The verdict ------------------------------------------------------------------------------

/** A domain's organizational domain (RFC 7489 3.2, by the public suffix list). */
const organizational = (domain: string) => getDomain(domain, { allowPrivateDomains: true }) ?? domain;

/** RFC 7489 3.1: relaxed alignment compares organizational domains, strict the domains themselves. */
const aligns = (fromDomain: string, other: string, mode: string | undefined) =>
  mode === "s" ? other === fromDomain : organizational(other) === organizational(fromDomain);

/**
 * D92: DMARC's alignment and policy, and the one `ready` verdict. The service signs with
 * `d=` the From domain (providers/dkim.ts), so a verified DKIM record aligns unless DMARC asks
 * for strict alignment of another domain; SPF is checked on the bounce domain (the return path)
 * or the From domain. A failed lookup is neither verified nor aligned.
 */
export function readiness(fromDomain: string, records: CheckedRecord[]): Pick<ChannelDomainCheck, "dmarc" | "ready"> {
  const kind = (k: RecordKind) => records.find((r) => r.kind === k);
  const verified = (k: RecordKind) => kind(k)?.status === "verified";
  const dmarc = kind("dmarc");
  const published = dmarc?.status === "verified" ? dmarc.found.find((f) => /^v=DMARC1\s*(;|$)/i.test(f.trim())) : undefined;
  const dmarcTags = tags(published ?? "");
  const policy = (dmarcTags.get("p") ?? "").toLowerCase();
  const dkimDomain = kind("dkim")?.name.split("._domainkey.")[1];
  const spfDomain = kind("spf")?.name;
  const aligned =
    (verified("dkim") && dkimDomain !== undefined && aligns(fromDomain, dkimDomain, dmarcTags.get("adkim")?.toLowerCase())) ||
    (verified("spf") && spfDomain !== undefined && aligns(fromDomain, spfDomain, dmarcTags.get("aspf")?.toLowerCase()));
  return {
    dmarc: { aligned, policy: (DMARC_POLICIES as readonly string[]).includes(policy) ? (policy as (typeof DMARC_POLICIES)[number]) : null },
    ready: verified("dkim") && verified("spf") && published !== undefined && aligned,
  };
}

// The channel's domain ------------------------------------------------------------------------

async function emailChannelSettings(
  database: Database,
  workspaceId: string,
  channelId: string,
  param = "channel_id",
): Promise<Record<string, string>> {
  const row = await database.prisma.channel.findFirst({
    where: { id: channelId, workspaceId, type: "email", disconnectedAt: null },
    select: { settings: true },
  });
  if (!row) throw notFound("e-mail channel", param);
  return settingsOf(row.settings);
}

/** The records an e-mail channel's owner publishes, unchecked (no DNS traffic). */
export async function channelDomain(database: Database, workspaceId: string, channelId: string, param?: string): Promise<ChannelDomain> {
  const settings = await emailChannelSettings(database, workspaceId, channelId, param);
  return {
    channel_id: channelId,
    from_domain: domainOf(settings.from ?? ""),
    bounce_domain: settings.bounce_domain ?? null,
    records: domainRecords(settings),
  };
}

/**
 * The same records, each checked with DNS lookups now, with DMARC's alignment and the sender's
 * readiness (D92): the one check of `svc channel dns`, the API and the dashboard.
 */
export async function checkChannelDomain(
  database: Database,
  workspaceId: string,
  channelId: string,
  param?: string,
): Promise<ChannelDomainCheck> {
  const domain = await channelDomain(database, workspaceId, channelId, param);
  const records = await checkRecords(domain.records);
  return { ...domain, records, ...readiness(domain.from_domain, records), checked_at: new Date().toISOString() };
}
