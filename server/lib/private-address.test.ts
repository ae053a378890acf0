import { request } from "node:http";
import { describe, expect, it } from "vitest";
import { checkHost, isPrivateAddress, PRIVATE_ADDRESS_ERROR, publicOnlyLookup } from "./private-address.ts";

// Issue "Delivery guarantees" (SSRF): every form of a non-public address, parsed by ipaddr.js.
describe("isPrivateAddress", () => {
  it.each([
    // IPv4, dotted
    ["127.0.0.1", "IPv4 loopback"],
    ["127.255.0.9", "IPv4 loopback range"],
    ["10.1.2.3", "private 10/8"],
    ["172.16.0.1", "private 172.16/12"],
    ["172.31.255.255", "private 172.16/12 (top)"],
    ["192.168.1.10", "private 192.168/16"],
    ["169.254.169.254", "cloud metadata"],
    ["169.254.1.1", "link-local"],
    ["100.64.0.1", "carrier-grade NAT"],
    ["100.127.255.255", "carrier-grade NAT (top)"],
    ["100.100.100.200", "Alibaba metadata (CGNAT)"],
    ["168.63.129.16", "Azure platform endpoint"],
    ["0.0.0.0", "this network"],
    ["0.1.2.3", "this network range"],
    ["255.255.255.255", "broadcast"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast (SSDP)"],
    ["240.0.0.1", "reserved 240/4"],
    ["192.0.0.8", "IETF protocol assignments"],
    ["192.0.2.1", "documentation TEST-NET-1"],
    ["198.51.100.7", "documentation TEST-NET-2"],
    ["203.0.113.9", "documentation TEST-NET-3"],
    ["198.18.0.1", "benchmarking"],
    ["198.19.255.255", "benchmarking (top)"],
    // IPv4, other spellings inet_aton accepts
    ["2130706433", "loopback as one decimal number"],
    ["0x7f000001", "loopback as one hex number"],
    ["017700000001", "loopback as one octal number"],
    ["0177.0.0.1", "loopback with an octal part"],
    ["0x7f.0.0.1", "loopback with a hex part"],
    ["127.1", "loopback in two parts"],
    ["127.0.1", "loopback in three parts"],
    ["0xa9.0xfe.0xa9.0xfe", "metadata in hex parts"],
    ["3232235777", "192.168.1.1 as one decimal number"],
    // IPv6
    ["::1", "IPv6 loopback"],
    ["[::1]", "IPv6 loopback in brackets"],
    ["0:0:0:0:0:0:0:1", "IPv6 loopback, long form"],
    ["::", "unspecified"],
    ["fc00::1", "unique-local"],
    ["fd00:ec2::254", "AWS IPv6 metadata"],
    ["fe80::1", "IPv6 link-local"],
    ["fe80::1%eth0", "IPv6 link-local with a zone"],
    ["fec0::1", "site-local (deprecated)"],
    ["ff02::1", "IPv6 multicast"],
    ["ff05::1:3", "IPv6 multicast, site"],
    ["100::1", "discard-only"],
    ["2001:db8::1", "documentation"],
    ["2001:2::1", "benchmarking"],
    ["2001:10::1", "ORCHID (deprecated)"],
    ["3fff::1", "documentation (2024)"],
    // IPv6 carrying a private IPv4
    ["::ffff:127.0.0.1", "IPv4-mapped loopback"],
    ["::ffff:7f00:1", "IPv4-mapped loopback, hex"],
    ["[::ffff:7f00:1]", "IPv4-mapped loopback in brackets (as URL hosts come)"],
    ["::ffff:169.254.169.254", "IPv4-mapped metadata"],
    ["::ffff:0:127.0.0.1", "IPv4-translated (SIIT) loopback"],
    ["[::ffff:0:7f00:1]", "IPv4-translated loopback, as a URL host"],
    ["::ffff:0:a00:1", "IPv4-translated 10.0.0.1"],
    ["::127.0.0.1", "IPv4-compatible loopback"],
    ["::7f00:1", "IPv4-compatible loopback, hex"],
    ["::a9fe:a9fe", "IPv4-compatible metadata"],
    ["64:ff9b::a9fe:a9fe", "NAT64 of the metadata address"],
    ["64:ff9b::127.0.0.1", "NAT64 of loopback, dotted"],
    ["64:ff9b::10.0.0.1", "NAT64 of a private address"],
    ["64:ff9b:1::808:808", "local-use NAT64 (any embedding)"],
    ["64:ff9b:1:2:3:4:5:6", "local-use NAT64"],
    ["2002:c0a8:0101::1", "6to4 of 192.168.1.1"],
    ["2002:7f00:1::", "6to4 of loopback"],
    ["2001:0:a9fe:a9fe::f7f7:f7f7", "Teredo with the metadata server"],
    ["2001:0:4136:e378:8000:63bf:80ff:fffe", "Teredo with client 127.0.0.1"],
    // Not addresses
    ["not-an-ip", "not an address"],
    ["", "empty"],
    ["1.2.3.4.5", "five parts"],
    ["::ffff:1.2.3.256", "octet over 255"],
  ])("%s (%s) is private", (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each([
    ["8.8.8.8", "public"],
    ["157.240.22.35", "public"],
    ["172.32.0.1", "public"],
    ["100.128.0.1", "public"],
    ["134744072", "8.8.8.8 as one decimal number"],
    ["2a03:2880:f12f:83:face:b00c:0:25de", "public"],
    ["2001:4860:4860::8888", "public"],
    ["[2606:4700:4700::1111]", "public"],
    ["::ffff:8.8.8.8", "IPv4-mapped public"],
    ["::ffff:0:808:808", "IPv4-translated public"],
    ["64:ff9b::808:808", "NAT64 of a public address"],
    ["2002:808:808::1", "6to4 of a public address"],
    ["2001:0:4136:e378:8000:63bf:f7f7:f7f7", "Teredo, public server and client"],
  ])("%s is public", (address) => {
    expect(isPrivateAddress(address)).toBe(false);
  });
});

describe("checkHost", () => {
  it("checks IP literals without DNS", async () => {
    expect(await checkHost("127.0.0.1")).toEqual({ ok: false, reason: "private", address: "127.0.0.1" });
    expect(await checkHost("[::1]")).toEqual({ ok: false, reason: "private", address: "::1" });
    expect(await checkHost("8.8.8.8")).toEqual({ ok: true, addresses: ["8.8.8.8"] });
    expect(await checkHost("[::ffff:0:7f00:1]")).toEqual({ ok: false, reason: "private", address: "::ffff:0:7f00:1" });
    expect(await checkHost("2130706433")).toEqual({ ok: false, reason: "private", address: "127.0.0.1" });
  });

  it("resolves names: localhost is private", async () => {
    expect(await checkHost("localhost")).toMatchObject({ ok: false, reason: "private" });
  });

  it("reports a name that does not resolve", async () => {
    expect(await checkHost("no-such-host.invalid")).toEqual({ ok: false, reason: "unresolvable" });
  });
});

describe("publicOnlyLookup", () => {
  it("refuses a connection to a private address when it is made", async () => {
    const err = await new Promise<NodeJS.ErrnoException>((resolve) => {
      const req = request({ host: "localhost", port: 9, lookup: publicOnlyLookup }, () => resolve(new Error("connected")));
      req.on("error", resolve);
      req.end();
    });
    expect(err.code).toBe(PRIVATE_ADDRESS_ERROR);
  });
});
