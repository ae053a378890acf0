import { lookup as dnsLookup } from "node:dns";
import { lookup } from "node:dns/promises";
import { BlockList, isIP, isIPv4, type LookupFunction } from "node:net";
import { env } from "./env.ts";
import { invalid } from "./errors.ts";

// Addresses the service must not call on a user's behalf (D34, operations.md
// ALLOW_PRIVATE_WEBHOOKS): loopback, private, link-local, unique-local, carrier-grade NAT,
// cloud metadata and other non-public ranges, IPv4 and IPv6. Used for provider base URLs and
// SMTP hosts when a channel is connected and when it sends, and for webhook URLs.

const blocked = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // carrier-grade NAT (also Alibaba's metadata 100.100.100.200)
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local, cloud metadata 169.254.169.254
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation
  ["192.168.0.0", 16], // private
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation
  ["203.0.113.0", 24], // documentation
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
  ["168.63.129.16", 32], // Azure's platform endpoint (wireserver, metadata)
] as const) {
  blocked.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 128], // unspecified
  ["::1", 128], // loopback
  ["100::", 64], // discard-only
  ["2001:db8::", 32], // documentation
  ["fc00::", 7], // unique-local (also AWS's metadata fd00:ec2::254)
  ["fe80::", 10], // link-local
  ["fec0::", 10], // site-local (deprecated)
  ["ff00::", 8], // multicast
] as const) {
  blocked.addSubnet(network, prefix, "ipv6");
}

/** The IPv4 address an IPv6 address carries (mapped, compatible, NAT64, 6to4), if any. */
function embeddedIPv4(address: string): string | null {
  const groups = expandIPv6(address);
  if (!groups) return null;
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  const zeros = (from: number, to: number) => groups.slice(from, to).every((g) => g === 0);
  // ::ffff:a.b.c.d (mapped) and ::a.b.c.d (compatible, deprecated)
  if (zeros(0, 5) && (groups[5] === 0xffff || groups[5] === 0)) return v4(groups[6]!, groups[7]!);
  // 64:ff9b::a.b.c.d (NAT64, RFC 6052) and 64:ff9b:1::/48 (local NAT64, RFC 8215)
  if (groups[0] === 0x64 && groups[1] === 0xff9b && (zeros(2, 6) || groups[2] === 1)) return v4(groups[6]!, groups[7]!);
  // 2002:aabb:ccdd::/48 (6to4)
  if (groups[0] === 0x2002) return v4(groups[1]!, groups[2]!);
  return null;
}

/** Eight 16-bit groups of an IPv6 address (dotted IPv4 tail allowed), or null. */
function expandIPv6(address: string): number[] | null {
  let text = address.split("%")[0]!.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const o = dotted[1]!.split(".").map(Number);
    text = `${text.slice(0, dotted.index)}${((o[0]! << 8) | o[1]!).toString(16)}:${((o[2]! << 8) | o[3]!).toString(16)}`;
  }
  const [head, tail, more] = text.split("::");
  if (more !== undefined) return null;
  const parse = (part: string | undefined) => (part ? part.split(":").map((g) => parseInt(g, 16)) : []);
  const left = parse(head);
  const right = parse(tail);
  const fill = tail === undefined ? 0 : 8 - left.length - right.length;
  const groups = [...left, ...new Array<number>(Math.max(fill, 0)).fill(0), ...right];
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null;
}

/** Whether an IP address (v4 or v6, brackets and zone ids allowed) is not a public address. */
export function isPrivateAddress(address: string): boolean {
  const ip = address.replace(/^\[|\]$/g, "");
  const family = isIP(ip.split("%")[0]!);
  if (family === 4) return blocked.check(ip, "ipv4");
  if (family !== 6) return true; // not an address at all: never treat it as public
  const bare = ip.split("%")[0]!;
  if (blocked.check(bare, "ipv6")) return true;
  const v4 = embeddedIPv4(bare);
  return v4 !== null && isIPv4(v4) && blocked.check(v4, "ipv4");
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
  if (isIP(bare)) {
    addresses = [bare];
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
export async function assertAllowedHost(host: string, param: string): Promise<void> {
  if (env().allowPrivateWebhooks) return;
  const check = await checkHost(host);
  if (check.ok) return;
  if (check.reason === "unresolvable") throw invalid("unresolvable_host", `${param}: the host ${host} does not resolve.`, param);
  throw invalid(
    "private_address",
    `${param}: ${host} is a loopback or private address (${check.address}); set ALLOW_PRIVATE_WEBHOOKS=1 to allow it (development, tests).`,
    param,
  );
}
