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
  opts: {
    timeoutMs: number;
    allowPrivate: boolean;
    method?: "GET" | "POST";
    maxBody?: number;
    /** The body's type when it is not JSON (Twilio's API takes form-encoded bodies). */
    contentType?: string;
  },
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
  const deadline = callDeadline(opts.timeoutMs);
  const signal = deadline.signal;
  try {
    const res = await request(url, {
      method,
      headers:
        method === "POST"
          ? { ...headers, "content-type": opts.contentType ?? "application/json", accept: "application/json" }
          : { ...headers, accept: "application/json" },
      ...(method === "POST" ? { body } : {}),
      signal,
      dispatcher: opts.allowPrivate ? pools.private : pools.public,
      // The deadline alone ends the call: undici's own timers would judge it before the
      // sockets are read, like a plain timer (`callDeadline`).
      headersTimeout: 0,
      bodyTimeout: 0,
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
  } finally {
    deadline.clear();
  }
}

/**
 * A call's deadline, judged only after the answer that may already be waiting has been read.
 * When a process is starved of CPU, its event loop runs its due timers before it polls the
 * sockets, so a plain timer fires first and counts late an answer that came in time (seen: a
 * 3 s answer judged a 15 s timeout, and the message sent again, D47). The timer only schedules
 * the abort for the loop's check phase (`setImmediate`), which comes after its poll phase: an
 * answer that arrived meanwhile is read first, and the abort then finds the call over.
 */
export function callDeadline(ms: number): { signal: AbortSignal; clear: () => void } {
  const controller = new AbortController();
  let immediate: NodeJS.Immediate | undefined;
  const timer = setTimeout(() => {
    immediate = setImmediate(() => controller.abort());
  }, ms);
  return {
    signal: controller.signal,
    clear: () => {
      clearTimeout(timer);
      if (immediate) clearImmediate(immediate);
    },
  };
}

/**
 * Whether a failed call proves the server never got the request: the connection was refused
 * or could not be made (its name did not resolve, its address was unreachable or private, the
 * connect timed out, TLS refused the certificate before anything was sent). Any other failure
 * (no answer in time, the connection closed before the answer) leaves the call's outcome
 * unknown: the request may have been processed (D47).
 */
export function requestNotReceived(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== "string") return false;
  return NOT_RECEIVED.has(code) || TLS_REFUSED.test(code);
}

const NOT_RECEIVED = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EADDRNOTAVAIL",
  "UND_ERR_CONNECT_TIMEOUT",
  PRIVATE_ADDRESS_ERROR,
]);
const TLS_REFUSED = /^(ERR_TLS|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|ERR_SSL)/;

/** undici's errors in the terms callers read (Node's socket codes), however the call ended. */
function callError(err: unknown, signal: AbortSignal, timeoutMs: number): unknown {
  if (err instanceof errors.ConnectTimeoutError) return Object.assign(new Error(err.message), { code: "UND_ERR_CONNECT_TIMEOUT" });
  if (signal.aborted) {
    return Object.assign(new Error(`no answer within ${timeoutMs / 1000} s`), { name: "TimeoutError", code: "ETIMEDOUT" });
  }
  if (err instanceof errors.SocketError || err instanceof errors.ResponseContentLengthMismatchError) {
    return Object.assign(new Error("the connection closed before the answer was complete"), { code: "ECONNRESET" });
  }
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

/**
 * A provider call that threw, as its outcome (D47): a private address is refused for good, a
 * request the provider never got may be retried, and anything else (no answer in time, the
 * connection closed before the answer) is unknown: the provider may have taken it. `who` names
 * the provider in its errors, `urlSetting` the setting of its base URL, and `settles` what will
 * tell the outcome later.
 */
export function callFailure(
  err: unknown,
  o: { who: string; urlSetting: string; timeoutMs: number; settles: string; durationMs: number },
): { outcome: "permanent" | "temporary" | "unknown"; error: string; detail: { duration_ms: number } } {
  const e = err as NodeJS.ErrnoException;
  const detail = { duration_ms: o.durationMs };
  if (e.code === PRIVATE_ADDRESS_ERROR) return { outcome: "permanent", error: `${o.urlSetting}: ${e.message}.`, detail };
  if (requestNotReceived(e)) return { outcome: "temporary", error: `Network error calling ${o.who}: ${e.code ?? e.message}.`, detail };
  const what =
    e.name === "TimeoutError"
      ? `did not answer within ${o.timeoutMs / 1000} s`
      : `closed the connection before answering (${e.code ?? e.message})`;
  const who = o.who.charAt(0).toUpperCase() + o.who.slice(1);
  return { outcome: "unknown", error: `${who} ${what}; whether it took the message is known only once ${o.settles}.`, detail };
}
