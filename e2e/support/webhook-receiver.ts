import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { poll } from "./until.ts";

// A client's webhook endpoint on loopback: records every POST with its raw body and headers,
// and answers as the test says (`respond`): a status, after an optional delay (to exceed the
// service's timeout) or once a promise settles (requests held open until the test lets them
// go), or a redirect. It counts the requests it holds open, and the most it held at once.

export type Received = { at: number; path: string; headers: IncomingHttpHeaders; raw: string; body: any };
export type Answer = { status: number; delayMs?: number; until?: Promise<unknown>; headers?: Record<string, string>; body?: string };

export type Receiver = {
  url: string;
  port: number;
  received: Received[];
  /** Requests received and not yet answered, and the most there were at once. */
  open: () => number;
  maxOpen: () => number;
  /** How to answer the n-th request (0-based) of the receiver; 200 by default. */
  respond: (fn: (request: Received, n: number) => Answer) => void;
  /** Resolves with the requests matching `match` once there are at least `count` of them. */
  waitFor: (match: (r: Received) => boolean, count?: number, timeoutMs?: number) => Promise<Received[]>;
  close: () => Promise<void>;
};

export async function startReceiver(opts: { port?: number } = {}): Promise<Receiver> {
  const received: Received[] = [];
  let answer: (request: Received, n: number) => Answer = () => ({ status: 200 });
  const sockets = new Set<Socket>();
  let open = 0;
  let maxOpen = 0;
  const server = createServer((req, res) => {
    maxOpen = Math.max(maxOpen, ++open);
    res.once("close", () => open--);
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      let body: unknown = null;
      try {
        body = JSON.parse(raw);
      } catch {
        body = null;
      }
      const request: Received = { at: Date.now(), path: req.url ?? "/", headers: req.headers, raw, body };
      const n = received.length;
      received.push(request);
      const a = answer(request, n);
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(a.status, { "content-type": "text/plain", ...a.headers });
        res.end(a.body ?? (a.status < 300 ? "ok" : `answer ${a.status}`));
      };
      if (a.until) void a.until.then(send, send);
      else if (a.delayMs) setTimeout(send, a.delayMs).unref();
      else send();
    });
  });
  server.on("connection", (s: Socket) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    port,
    received,
    open: () => open,
    maxOpen: () => maxOpen,
    respond: (fn) => (answer = fn),
    waitFor: async (match, count = 1, timeoutMs = 20_000) => {
      const found = await poll(
        () => received.filter(match),
        (matching) => matching.length >= count,
        timeoutMs,
        25,
      );
      if (found.length < count)
        throw new Error(`waited ${timeoutMs} ms for ${count} matching webhook(s); got ${found.length} of ${received.length}`);
      return found;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
