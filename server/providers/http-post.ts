import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP } from "node:net";
import { isPrivateAddress, PRIVATE_ADDRESS_ERROR, publicOnlyLookup } from "../lib/private-address.ts";

// One HTTP POST (or GET) for provider clients, on node:http so the connection can refuse private
// addresses at the moment it is made (`publicOnlyLookup`), which fetch cannot. Redirects are
// never followed: a 3xx is an answer like any other.

export type HttpAnswer = { status: number; headers: IncomingHttpHeaders; body: string };

const MAX_BODY = 64 * 1024;

export function postJson(
  url: URL,
  headers: Record<string, string>,
  body: string,
  opts: { timeoutMs: number; allowPrivate: boolean; method?: "GET" | "POST"; maxBody?: number },
): Promise<HttpAnswer> {
  const maxBody = opts.maxBody ?? MAX_BODY;
  const method = opts.method ?? "POST";
  const request = url.protocol === "https:" ? httpsRequest : httpRequest;
  // An IP literal is connected to without a lookup, so it is checked here.
  const literal = url.hostname.replace(/^\[|\]$/g, "");
  if (!opts.allowPrivate && isIP(literal) && isPrivateAddress(literal)) {
    return Promise.reject(Object.assign(new Error(`${literal} is a private address`), { code: PRIVATE_ADDRESS_ERROR }));
  }
  const payload = Buffer.from(body);
  const signal = AbortSignal.timeout(opts.timeoutMs);
  return new Promise((resolve, reject) => {
    // However the abort surfaces (on the request or the response), it is a timeout.
    const fail = (err: Error) =>
      reject(
        signal.aborted
          ? Object.assign(new Error(`no answer within ${opts.timeoutMs / 1000} s`), { name: "TimeoutError", code: "ETIMEDOUT" })
          : err,
      );
    const req = request(
      url,
      {
        method,
        headers:
          method === "POST"
            ? { ...headers, "content-type": "application/json", "content-length": String(payload.length), accept: "application/json" }
            : { ...headers, accept: "application/json" },
        signal,
        ...(opts.allowPrivate ? {} : { lookup: publicOnlyLookup }),
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          if (size < maxBody) chunks.push(chunk);
          size += chunk.length;
        });
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).subarray(0, maxBody).toString("utf8"),
          }),
        );
        res.on("error", fail);
        res.on("close", () => {
          if (!res.complete) fail(Object.assign(new Error("the connection closed before the answer was complete"), { code: "ECONNRESET" }));
        });
      },
    );
    req.on("error", fail);
    if (method === "POST") req.end(payload);
    else req.end();
  });
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
