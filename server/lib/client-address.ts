import type { IncomingMessage } from "node:http";
import ipaddr from "ipaddr.js";
import proxyaddr from "proxy-addr";
import { env } from "./env.ts";

// The client's address: the key for limits that apply to a client rather than to a key or a
// user (anonymous API requests, dashboard sign-in, D51) and the loopback check of /metrics
// (D52). Behind a load balancer the socket's address is the balancer's, shared by every
// client, so with TRUST_PROXY the address is read from X-Forwarded-For: walking from the
// right, each hop that is a trusted proxy is skipped and the first one that is not is the
// client. A header sent by a peer that is not trusted is ignored. An entry that is not an IP
// address is not believed (the socket's address is used). The server (server/main.ts) hands
// the result to Next in this header, replacing any the client sent.

export const CLIENT_ADDRESS_HEADER = "x-svc-client-address";

export function clientAddress(req: IncomingMessage): string {
  const socket = req.socket.remoteAddress;
  if (!socket) return "unknown"; // the connection is gone already
  const claimed = proxyaddr(req, env().trustProxy);
  const address = ipaddr.isValid(claimed) ? claimed : socket;
  // One client, one key: "::ffff:10.0.0.1" and "10.0.0.1" are the same address.
  return ipaddr.isValid(address) ? ipaddr.process(address).toString() : address;
}
