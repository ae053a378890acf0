import type { IncomingMessage } from "node:http";

// The client's address, as the server saw the connection: the key for limits that apply to a
// client rather than to a key or a user (anonymous API requests, dashboard sign-in, D51). The
// server (server/main.ts) hands it to Next in this header, replacing any the client sent.

export const CLIENT_ADDRESS_HEADER = "x-svc-client-address";

export function clientAddress(req: IncomingMessage): string {
  return req.socket.remoteAddress ?? "unknown";
}
