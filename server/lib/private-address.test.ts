import { request } from "node:http";
import { describe, expect, it } from "vitest";
import { checkHost, isPrivateAddress, PRIVATE_ADDRESS_ERROR, publicOnlyLookup } from "./private-address.ts";

describe("isPrivateAddress", () => {
  it.each([
    ["127.0.0.1", "IPv4 loopback"],
    ["127.255.0.9", "IPv4 loopback range"],
    ["10.1.2.3", "private 10/8"],
    ["172.16.0.1", "private 172.16/12"],
    ["172.31.255.255", "private 172.16/12 (top)"],
    ["192.168.1.10", "private 192.168/16"],
    ["169.254.169.254", "cloud metadata"],
    ["169.254.1.1", "link-local"],
    ["100.64.0.1", "carrier-grade NAT"],
    ["100.100.100.200", "Alibaba metadata (CGNAT)"],
    ["168.63.129.16", "Azure platform endpoint"],
    ["0.0.0.0", "this network"],
    ["255.255.255.255", "broadcast"],
    ["224.0.0.1", "multicast"],
    ["::1", "IPv6 loopback"],
    ["[::1]", "IPv6 loopback in brackets"],
    ["::", "unspecified"],
    ["fc00::1", "unique-local"],
    ["fd00:ec2::254", "AWS IPv6 metadata"],
    ["fe80::1", "IPv6 link-local"],
    ["fe80::1%eth0", "IPv6 link-local with a zone"],
    ["ff02::1", "IPv6 multicast"],
    ["::ffff:127.0.0.1", "IPv4-mapped loopback"],
    ["::ffff:7f00:1", "IPv4-mapped loopback, hex"],
    ["::ffff:169.254.169.254", "IPv4-mapped metadata"],
    ["64:ff9b::a9fe:a9fe", "NAT64 of the metadata address"],
    ["2002:c0a8:0101::1", "6to4 of 192.168.1.1"],
    ["not-an-ip", "not an address"],
  ])("%s (%s) is private", (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each([
    ["8.8.8.8"],
    ["157.240.22.35"],
    ["172.32.0.1"],
    ["100.128.0.1"],
    ["2a03:2880:f12f:83:face:b00c:0:25de"],
    ["2001:4860:4860::8888"],
    ["::ffff:8.8.8.8"],
    ["64:ff9b::808:808"],
  ])("%s is public", (address) => {
    expect(isPrivateAddress(address)).toBe(false);
  });
});

describe("checkHost", () => {
  it("checks IP literals without DNS", async () => {
    expect(await checkHost("127.0.0.1")).toEqual({ ok: false, reason: "private", address: "127.0.0.1" });
    expect(await checkHost("[::1]")).toEqual({ ok: false, reason: "private", address: "::1" });
    expect(await checkHost("8.8.8.8")).toEqual({ ok: true, addresses: ["8.8.8.8"] });
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
