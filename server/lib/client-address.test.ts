import type { IncomingMessage } from "node:http";
import { afterEach, describe, expect, it, vi } from "vitest";

// TRUST_PROXY decides which hops of X-Forwarded-For are believed (D51's per-address limits,
// the anonymous rate limit, /metrics on loopback); the real path is proven over HTTP in
// e2e/api/edge-limits.test.ts.

async function addressWith(trust: string | undefined, socket: string, forwardedFor?: string): Promise<string> {
  vi.resetModules();
  vi.stubEnv("TRUST_PROXY", trust ?? "");
  vi.stubEnv("AUTH_SECRET", "client-address-test-secret-0123456789");
  const { clientAddress } = await import("./client-address.ts");
  const connection = { remoteAddress: socket };
  const headers = forwardedFor === undefined ? {} : { "x-forwarded-for": forwardedFor };
  return clientAddress({ socket: connection, connection, headers } as unknown as IncomingMessage);
}

afterEach(() => vi.unstubAllEnvs());

describe("clientAddress", () => {
  it.each([
    // [TRUST_PROXY, socket, X-Forwarded-For, client]
    [undefined, "10.0.0.5", "203.0.113.9", "10.0.0.5"], // unset: the header is ignored
    ["1", "10.0.0.5", "203.0.113.9", "203.0.113.9"], // one balancer hop
    ["1", "10.0.0.5", "198.51.100.1, 203.0.113.9", "203.0.113.9"], // the client's own claim is left of the balancer's entry
    ["2", "10.0.0.5", "198.51.100.1, 10.0.0.7", "198.51.100.1"],
    ["1", "10.0.0.5", undefined, "10.0.0.5"],
    ["10.0.0.0/8", "10.0.0.5", "198.51.100.1, 10.0.0.7", "198.51.100.1"],
    ["10.0.0.0/8", "192.0.2.1", "198.51.100.1", "192.0.2.1"], // a peer that is not trusted: its header is spoofed
    ["10.0.0.5, 10.0.0.6", "10.0.0.5", "198.51.100.1", "198.51.100.1"],
    ["1", "10.0.0.5", "not-an-address", "10.0.0.5"], // an entry that is not an address is not believed
    [undefined, "::ffff:127.0.0.1", undefined, "127.0.0.1"], // one client, one key
  ])("TRUST_PROXY=%s from %s with X-Forwarded-For %s is %s", async (trust, socket, forwardedFor, expected) => {
    expect(await addressWith(trust, socket, forwardedFor)).toBe(expected);
  });

  it.each(["yes", "10.0.0.0/33", "10.0.0.1,,10.0.0.2", "-1", "1.5"])(
    "TRUST_PROXY=%s stops the start with a message naming it",
    async (bad) => {
      vi.resetModules();
      vi.stubEnv("TRUST_PROXY", bad);
      const { env } = await import("./env.ts");
      expect(() => env()).toThrow(/^Invalid configuration TRUST_PROXY: a number of proxy hops, or a comma-separated list/);
    },
  );
});
