import { once } from "node:events";
import { requestWaiters } from "./request-waiters.ts";
import { randomBytes, randomUUID } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { smsSegments } from "../../server/channels/sms/segments.ts";
import { twilioSignature } from "../../server/channels/sms/twilio-signature.ts";

// A local stand-in for Twilio's Messages API, speaking its formats: point a channel's API base
// URL at `url`. `POST /2010-04-01/Accounts/{AccountSid}/Messages.json` takes a form-encoded
// body with HTTP Basic auth and answers `201` with the Message resource as Twilio's JSON, or an
// error as Twilio answers it (`{ code, message, more_info, status }`): the checks of the real
// API that matter to a client, recipients that opted out (21610), or whatever a test scripts
// with `setMode`. It records every request, and posts what Twilio posts back (status callbacks
// to a message's `StatusCallback`, inbound messages) form-encoded and signed with
// `X-Twilio-Signature` as Twilio signs them.

export type FakeTwilioRequest = {
  method: string;
  path: string;
  /** The AccountSid of `/2010-04-01/Accounts/{AccountSid}/Messages.json`. */
  accountSid: string | null;
  headers: IncomingHttpHeaders;
  /** The form fields posted (a field posted twice keeps its last value). */
  form: Record<string, string>;
  raw: string;
  at: number;
  /** The message sid answered, when Twilio created a message. */
  sid?: string;
  /** The JSON answered (the Message resource, or Twilio's error). */
  answer?: unknown;
};

/** Twilio's errors as its error dictionary words them, with the HTTP status its API answers. */
export const TWILIO_ERRORS = {
  20003: { status: 401, message: "Authenticate" },
  20404: { status: 404, message: "The requested resource was not found" },
  20429: { status: 429, message: "Too Many Requests" },
  20503: { status: 503, message: "Service Unavailable" },
  21211: { status: 400, message: "Invalid 'To' Phone Number" },
  21408: { status: 400, message: "Permission to send an SMS has not been enabled for the region indicated by the 'To' number" },
  21602: { status: 400, message: "Message body is required." },
  21603: { status: 400, message: "A 'From' or 'MessagingServiceSid' parameter is required to send a message" },
  21604: { status: 400, message: "A 'To' phone number is required." },
  21610: { status: 400, message: "Attempt to send to unsubscribed recipient" },
  21614: { status: 400, message: "'To' number is not a valid mobile number" },
  21617: { status: 400, message: "The concatenated message body exceeds the 1600 character limit." },
} as const;

export type TwilioErrorCode = keyof typeof TWILIO_ERRORS;

export type FakeTwilioMode =
  /** Create every valid message (the default). */
  | { kind: "ok" }
  /** One of Twilio's errors, with its status and message; `Retry-After` (seconds) when given. */
  | { kind: "error"; code: TwilioErrorCode; retryAfter?: number }
  /** An HTTP status with an optional body (JSON unless a string). */
  | { kind: "status"; status: number; body?: unknown; headers?: Record<string, string> }
  /** Never answer (the client times out). */
  | { kind: "hang" }
  /** Close the connection without an answer. */
  | { kind: "drop" };

/** Every status Twilio reports on an outbound sms (`MessageStatus`). */
export type TwilioMessageStatus =
  "queued" | "accepted" | "scheduled" | "sending" | "sent" | "delivered" | "undelivered" | "failed" | "read" | "canceled";

export type FakeTwilio = {
  /** The base URL to use as a channel's API base URL, e.g. `http://127.0.0.1:41234`. */
  url: string;
  accountSid: string;
  authToken: string;
  requests: FakeTwilioRequest[];
  /** Numbers that texted STOP: a send to one answers 21610, as Twilio's opt-out handling does. */
  optedOut: Set<string>;
  /** Answer the next `times` requests (all, when absent) this way; then back to the previous mode. */
  setMode(mode: FakeTwilioMode, opts?: { times?: number }): void;
  /** Resolves once `count` requests have arrived. */
  waitForRequests(count: number, timeoutMs?: number): Promise<FakeTwilioRequest[]>;
  /**
   * Posts the status callback Twilio sends for a message it created, to that message's
   * `StatusCallback`, signed with the account's auth token (or `signWith`, or unsigned when
   * null). `ErrorCode` goes along for `undelivered` and `failed`.
   */
  postStatus(
    sid: string,
    status: TwilioMessageStatus,
    opts?: { errorCode?: number; signWith?: string | null; url?: string },
  ): Promise<Response>;
  /** Posts an inbound sms to `url` (the number's messaging webhook) as Twilio does, signed likewise. */
  postInbound(
    url: string,
    sms: { from: string; to: string; body: string; messagingServiceSid?: string },
    opts?: { signWith?: string | null },
  ): Promise<Response>;
  /** Resolves once every connection open now has closed. */
  connectionsClosed(): Promise<void>;
  reset(): void;
  close(): Promise<void>;
};

const E164 = /^\+[1-9]\d{1,14}$/;
const API_VERSION = "2010-04-01";

export async function startFakeTwilio(opts: { accountSid?: string; authToken?: string; port?: number } = {}): Promise<FakeTwilio> {
  const accountSid = opts.accountSid ?? `AC${randomBytes(16).toString("hex")}`;
  const authToken = opts.authToken ?? randomBytes(16).toString("hex");
  const requests: FakeTwilioRequest[] = [];
  const optedOut = new Set<string>();
  let mode: FakeTwilioMode = { kind: "ok" };
  const queued: FakeTwilioMode[] = [];
  const sockets = new Set<Socket>();
  const waiters = requestWaiters(requests, "fake Twilio");

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      const path = req.url ?? "/";
      // Twilio reads parameters from a form body only.
      const isForm = String(req.headers["content-type"] ?? "").startsWith("application/x-www-form-urlencoded");
      const record: FakeTwilioRequest = {
        method: req.method ?? "",
        path,
        accountSid: /^\/2010-04-01\/Accounts\/([^/]+)\/Messages\.json$/.exec(path.split("?")[0]!)?.[1] ?? null,
        headers: req.headers,
        form: isForm ? Object.fromEntries(new URLSearchParams(raw)) : {},
        raw,
        at: Date.now(),
      };
      requests.push(record);
      waiters.recorded();
      respond(res, record, queued.shift() ?? mode);
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  function respond(res: ServerResponse, record: FakeTwilioRequest, current: FakeTwilioMode): void {
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      record.answer = body;
      res.writeHead(status, {
        "content-type": "application/json",
        "twilio-request-id": `RQ${randomBytes(16).toString("hex")}`,
        ...headers,
      });
      res.end(typeof body === "string" ? body : JSON.stringify(body));
    };
    const error = (code: TwilioErrorCode, detail?: string, headers: Record<string, string> = {}) => {
      const { status, message } = TWILIO_ERRORS[code];
      json(status, { code, message: detail ?? message, more_info: `https://www.twilio.com/docs/errors/${code}`, status }, headers);
    };

    if (current.kind === "hang") return;
    if (current.kind === "drop") {
      res.socket?.destroy();
      return;
    }
    if (current.kind === "status") return json(current.status, current.body ?? "", current.headers);
    if (current.kind === "error") {
      return error(current.code, undefined, current.retryAfter !== undefined ? { "retry-after": String(current.retryAfter) } : {});
    }
    if (record.method !== "POST" || !record.accountSid) return error(20404);
    // HTTP Basic auth with this account's sid and auth token, for this account's path.
    const [user, password] = Buffer.from(String(record.headers.authorization ?? "").replace(/^Basic /, ""), "base64")
      .toString("utf8")
      .split(":");
    if (!/^Basic /.test(String(record.headers.authorization)) || user !== accountSid || password !== authToken) return error(20003);
    if (record.accountSid !== accountSid) return error(20404);
    const { To: to, From: from, MessagingServiceSid: service, Body: body } = record.form;
    if (!to) return error(21604);
    if (!E164.test(to)) return error(21211, `Invalid 'To' Phone Number: ${to}`);
    if (!from && !service) return error(21603);
    if (!body) return error(21602);
    if (body.length > 1600) return error(21617);
    if (optedOut.has(to)) return error(21610);
    record.sid = `SM${randomBytes(16).toString("hex")}`;
    json(201, messageResource(record, accountSid));
  }

  async function signedPost(url: string, params: URLSearchParams, signWith: string | null): Promise<Response> {
    return fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        "user-agent": "TwilioProxy/1.1",
        "i-twilio-idempotency-token": randomUUID(),
        ...(signWith !== null ? { "x-twilio-signature": twilioSignature(signWith, url, params) } : {}),
      },
      body: params.toString(),
    });
  }

  return {
    url: `http://127.0.0.1:${port}`,
    accountSid,
    authToken,
    requests,
    optedOut,
    setMode(next, o = {}) {
      if (o.times === undefined) {
        queued.length = 0;
        mode = next;
      } else {
        for (let i = 0; i < o.times; i++) queued.push(next);
      }
    },
    waitForRequests: waiters.waitFor,
    postStatus(sid, status, o = {}) {
      const sent = requests.find((r) => r.sid === sid);
      if (!sent) throw new Error(`fake Twilio created no message ${sid}`);
      const url = o.url ?? sent.form.StatusCallback;
      if (!url) throw new Error(`message ${sid} was sent without a StatusCallback`);
      // The fields and order of Twilio's sms status callback.
      const params = new URLSearchParams([
        ["SmsSid", sid],
        ["SmsStatus", status],
        ["MessageStatus", status],
        ["To", sent.form.To!],
        ...(sent.form.MessagingServiceSid ? [["MessagingServiceSid", sent.form.MessagingServiceSid]] : []),
        ["MessageSid", sid],
        ["AccountSid", accountSid],
        ...(sent.form.From ? [["From", sent.form.From]] : []),
        ["ApiVersion", API_VERSION],
        ...((status === "undelivered" || status === "failed") && o.errorCode !== undefined ? [["ErrorCode", String(o.errorCode)]] : []),
      ] as [string, string][]);
      return signedPost(url, params, o.signWith === undefined ? authToken : o.signWith);
    },
    postInbound(url, sms, o = {}) {
      const sid = `SM${randomBytes(16).toString("hex")}`;
      // The fields and order of Twilio's incoming message webhook (geographic ones left empty).
      const params = new URLSearchParams([
        ["ToCountry", ""],
        ["ToState", ""],
        ["SmsMessageSid", sid],
        ["NumMedia", "0"],
        ["ToCity", ""],
        ["FromZip", ""],
        ["SmsSid", sid],
        ["FromState", ""],
        ["SmsStatus", "received"],
        ["FromCity", ""],
        ["Body", sms.body],
        ["FromCountry", ""],
        ["To", sms.to],
        ...(sms.messagingServiceSid ? [["MessagingServiceSid", sms.messagingServiceSid]] : []),
        ["ToZip", ""],
        ["NumSegments", String(smsSegments(sms.body).segments)],
        ["MessageSid", sid],
        ["AccountSid", accountSid],
        ["From", sms.from],
        ["ApiVersion", API_VERSION],
      ] as [string, string][]);
      return signedPost(url, params, o.signWith === undefined ? authToken : o.signWith);
    },
    async connectionsClosed() {
      await Promise.all([...sockets].map((socket) => (socket.closed ? undefined : once(socket, "close"))));
    },
    reset() {
      requests.length = 0;
      queued.length = 0;
      optedOut.clear();
      mode = { kind: "ok" };
    },
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** The Message resource Twilio answers on creating one (`201`). */
function messageResource(record: FakeTwilioRequest, accountSid: string): Record<string, unknown> {
  const { To: to, From: from, MessagingServiceSid: service, Body: body } = record.form;
  const now = new Date().toUTCString().replace("GMT", "+0000");
  const uri = `/${API_VERSION}/Accounts/${accountSid}/Messages/${record.sid}`;
  return {
    account_sid: accountSid,
    api_version: API_VERSION,
    body,
    date_created: now,
    date_sent: null,
    date_updated: now,
    direction: "outbound-api",
    error_code: null,
    error_message: null,
    // With a Messaging Service, Twilio picks the sender later: `from` is null and the status `accepted`.
    from: from ?? null,
    messaging_service_sid: service ?? null,
    num_media: "0",
    num_segments: String(smsSegments(body ?? "").segments),
    price: null,
    price_unit: "USD",
    sid: record.sid,
    status: service && !from ? "accepted" : "queued",
    subresource_uris: { media: `${uri}/Media.json` },
    to,
    uri: `${uri}.json`,
  };
}
