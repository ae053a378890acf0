import type { IncomingHttpHeaders } from "node:http";
import { isIP } from "node:net";
import { Agent, errors, request } from "undici";
import { isPrivateAddress, PRIVATE_ADDRESS_ERROR, publicOnlyLookup } from "../lib/private-address.ts";

// One HTTP POST (or GET) for provider clients and webhook deliveries, through undici's
// connection pools: connections are kept alive and reused per origin (a TLS handshake and a
// TCP connect saved on every call after the first). Connections of the public pool refuse
// private addresses at the moment they are made (`publicOnlyLookup`), which fetch cannot.
// Redirects are never followed: a 3xx is an answer like any other.

export type HttpAnswer = { status: number; headers: IncomingHttpHeaders; body: string };

const MAX_BODY = 64 * 1024;

/** Idle kept-alive connections close after this long (well under common servers' own timeouts). */
const KEEP_ALIVE_MS = 4_000;

const pools = {
  public: new Agent({ keepAliveTimeout: KEEP_ALIVE_MS, connect: { lookup: publicOnlyLookup } }),
  private: new Agent({ keepAliveTimeout: KEEP_ALIVE_MS }),
};

export async function postJson(
  url: URL,
  headers: Record<string, string>,
  body: string,
  opts: { timeoutMs: number; allowPrivate: boolean; method?: "GET" | "POST"; maxBody?: number },
): Promise<HttpAnswer> {
  const maxBody = opts.maxBody ?? MAX_BODY;
  const method = opts.method ?? "POST";
  // An IP literal is connected to without a lookup, so it is checked here.
  const literal = url.hostname.replace(/^\[|\]$/g, "");
  if (!opts.allowPrivate && isIP(literal) && isPrivateAddress(literal)) {
    throw Object.assign(new Error(`${literal} is a private address`), { code: PRIVATE_ADDRESS_ERROR });
  }
  // One deadline for the whole call (connect, answer and body): the pipeline's fence covers
  // the call for this long (D47), so it must never run longer.
  const signal = AbortSignal.timeout(opts.timeoutMs);
  try {
    const res = await request(url, {
      method,
      headers:
        method === "POST"
          ? { ...headers, "content-type": "application/json", accept: "application/json" }
          : { ...headers, accept: "application/json" },
      ...(method === "POST" ? { body } : {}),
      signal,
      dispatcher: opts.allowPrivate ? pools.private : pools.public,
      headersTimeout: opts.timeoutMs,
      bodyTimeout: opts.timeoutMs,
    });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body as AsyncIterable<Buffer>) {
      if (size < maxBody) chunks.push(chunk);
      size += chunk.length;
    }
    return {
      status: res.statusCode,
      headers: res.headers as IncomingHttpHeaders,
      body: Buffer.concat(chunks).subarray(0, maxBody).toString("utf8"),
    };
  } catch (err) {
    throw callError(err, signal, opts.timeoutMs);
  }
}

/** undici's errors in the terms callers read (Node's socket codes), however the call ended. */
function callError(err: unknown, signal: AbortSignal, timeoutMs: number): unknown {
  if (signal.aborted || err instanceof errors.HeadersTimeoutError || err instanceof errors.BodyTimeoutError) {
    return Object.assign(new Error(`no answer within ${timeoutMs / 1000} s`), { name: "TimeoutError", code: "ETIMEDOUT" });
  }
  if (err instanceof errors.SocketError || err instanceof errors.ResponseContentLengthMismatchError) {
    return Object.assign(new Error("the connection closed before the answer was complete"), { code: "ECONNRESET" });
  }
  if (err instanceof errors.ConnectTimeoutError) return Object.assign(new Error(err.message), { code: "ETIMEDOUT" });
  return err;
}

/** `Retry-After` in milliseconds (delta-seconds or an HTTP date), if present and sensible. */
export function retryAfterMs(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return undefined;
  if (/^\s*\d+\s*$/.test(text)) return Number(text.trim()) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** The first of these response headers that is present. */
export function firstHeader(headers: IncomingHttpHeaders, names: string[]): string | undefined {
  for (const name of names) {
    const value = headers[name];
    const text = Array.isArray(value) ? value[0] : value;
    if (text) return text;
  }
  return undefined;
}
