import { lookup as dnsLookup } from "node:dns";
import { lookup } from "node:dns/promises";
import type { LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";
import { env } from "./env.ts";
import { invalid } from "./errors.ts";

// Addresses the service must not call on a user's behalf (D34, operations.md
// ALLOW_PRIVATE_WEBHOOKS): loopback, private, link-local, unique-local, carrier-grade NAT,
// cloud metadata and other non-public ranges, IPv4 and IPv6. Used for provider base URLs and
// SMTP hosts when a channel is connected and when it sends, and for webhook URLs.

// The address is parsed by ipaddr.js (every IPv4 form inet_aton accepts: decimal, octal, hex,
// fewer than four parts; every IPv6 form) and only public unicast passes. An IPv6 address that
// carries an IPv4 address (mapped ::ffff:0:0/96, SIIT ::ffff:0:0:0/96, NAT64 64:ff9b::/96,
// 6to4 2002::/16, Teredo's server and client, the deprecated IPv4-compatible ::/96) is as
// public as the IPv4 addresses it carries; local-use NAT64 (64:ff9b:1::/48) never is.

/** Ranges ipaddr.js calls `unicast` that are not public all the same. */
const AZURE_WIRESERVER = ipaddr.parseCIDR("168.63.129.16/32"); // Azure's platform endpoint (metadata)
const IPV4_COMPATIBLE = ipaddr.parseCIDR("::/96");
const NAT64_WELL_KNOWN = ipaddr.parseCIDR("64:ff9b::/96");

/** Whether an IP address (v4 or v6, brackets and zone ids allowed) is not a public address. */
export function isPrivateAddress(address: string): boolean {
  const text = address.replace(/^\[|\]$/g, "").split("%")[0]!;
  if (!ipaddr.isValid(text)) return true; // not an address at all: never treat it as public
  const ip = ipaddr.parse(text);
  if (ip.kind() === "ipv4") return ip.range() !== "unicast" || ip.match(AZURE_WIRESERVER);
  const carried = carriedIPv4(ip as ipaddr.IPv6);
  if (carried) return carried.some((v4) => isPrivateAddress(v4.toString()));
  return ip.range() !== "unicast";
}

/** The IPv4 addresses an IPv6 address carries, or null when it carries none. */
function carriedIPv4(ip: ipaddr.IPv6): ipaddr.IPv4[] | null {
  const bytes = ip.toByteArray();
  const v4 = (octets: number[]) => new ipaddr.IPv4(octets);
  switch (ip.range()) {
    case "ipv4Mapped":
    case "rfc6145":
      return [v4(bytes.slice(12))];
    case "rfc6052":
      // The local-use prefix may carry its address at any prefix length: refused outright.
      return ip.match(NAT64_WELL_KNOWN) ? [v4(bytes.slice(12))] : [v4([0, 0, 0, 0])];
    case "6to4":
      return [v4(bytes.slice(2, 6))];
    case "teredo":
      return [v4(bytes.slice(4, 8)), v4(bytes.slice(12).map((b) => b ^ 0xff))];
    case "unicast":
      return ip.match(IPV4_COMPATIBLE) ? [v4(bytes.slice(12))] : null;
    default:
      return null;
  }
}

export type HostCheck =
  { ok: true; addresses: string[] } | { ok: false; reason: "private"; address: string } | { ok: false; reason: "unresolvable" };

/**
 * Resolves a host name (or takes an IP literal) and checks every address it resolves to: a
 * host is public only when all of them are.
 */
export async function checkHost(host: string): Promise<HostCheck> {
  const bare = host.replace(/^\[|\]$/g, "");
  let addresses: string[];
  if (ipaddr.isValid(bare.split("%")[0]!)) {
    addresses = [ipaddr.parse(bare.split("%")[0]!).toString()];
  } else {
    try {
      addresses = (await lookup(bare, { all: true, verbatim: true })).map((a) => a.address);
    } catch {
      return { ok: false, reason: "unresolvable" };
    }
    if (addresses.length === 0) return { ok: false, reason: "unresolvable" };
  }
  const found = addresses.find(isPrivateAddress);
  return found ? { ok: false, reason: "private", address: found } : { ok: true, addresses };
}

/** Error code of a connection refused by `publicOnlyLookup`. */
export const PRIVATE_ADDRESS_ERROR = "EPRIVATEADDRESS";

/**
 * A `lookup` for node:http, node:https and node:net that refuses private addresses at the
 * moment of connecting, so a host cannot pass the check and then resolve elsewhere (DNS
 * rebinding). An IP literal is connected to without any lookup: check it with
 * `isPrivateAddress` first.
 */
export const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true, verbatim: true }, (err, addresses) => {
    if (err) return callback(err, []);
    const found = addresses.find((a) => isPrivateAddress(a.address));
    if (found || addresses.length === 0) {
      const refused = Object.assign(new Error(`${hostname} resolves to a private address (${found?.address ?? "none"})`), {
        code: PRIVATE_ADDRESS_ERROR,
      });
      return callback(refused, []);
    }
    if (options.all) return callback(null, addresses);
    callback(null, addresses[0]!.address, addresses[0]!.family);
  });
};

/**
 * D34's rule where a URL is registered (webhook endpoints, provider base URLs, SMTP hosts):
 * public addresses only, unless the operator allows private ones (ALLOW_PRIVATE_WEBHOOKS=1).
 */
export async function assertAllowedHost(host: string, param: string, instead = ALLOW_PRIVATE): Promise<void> {
  if (env().allowPrivateWebhooks) return;
  const check = await checkHost(host);
  if (check.ok) return;
  if (check.reason === "unresolvable") throw invalid("unresolvable_host", `${param}: the host ${host} does not resolve.`, param);
  throw privateAddress(param, host, check.address, instead);
}

const ALLOW_PRIVATE = "set ALLOW_PRIVATE_WEBHOOKS=1 to allow it (development, tests)";

/** The refusal of a loopback or private address, with what to do `instead`. */
export const privateAddress = (param: string, host: string, address: string, instead = ALLOW_PRIVATE) =>
  invalid("private_address", `${param}: ${host} is a loopback or private address (${address}); ${instead}.`, param);
