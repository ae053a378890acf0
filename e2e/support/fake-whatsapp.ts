import { once } from "node:events";
import { requestWaiters } from "./request-waiters.ts";
import { createHmac, randomBytes } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

// A local stand-in for Meta's WhatsApp Cloud API, speaking its JSON: point a channel's
// `api_base_url` at `url` (any path prefix, such as /v21.0, is accepted). It records every
// request and answers like the real API: `{ messaging_product, contacts: [{ input, wa_id }],
// messages: [{ id: "wamid.…" }] }`, or the error a test asks for with `setMode`.
// It also builds and signs the webhook JSON the Cloud API posts back (status reports and
// inbound messages), for tests of /api/providers/whatsapp.

export type FakeWhatsAppRequest = {
  method: string;
  path: string;
  /** The phone number id of `/<id>/messages`. */
  phoneNumberId: string | null;
  headers: IncomingHttpHeaders;
  body: any;
  raw: string;
  at: number;
  /** The wamid answered, when the request was accepted. */
  wamid?: string;
};

/** Meta's refusals as its error-codes reference names them, with the HTTP status the Cloud API answers. */
export const REFUSALS = {
  130429: { status: 429, message: "(#130429) Rate limit hit", details: "Cloud API message throughput has been reached." },
  131056: {
    status: 400,
    message: "(#131056) (Business Account, Consumer Account) pair rate limit hit",
    details: "Too many messages sent from the sender phone number to the same recipient phone number in a short period of time.",
  },
  131057: {
    status: 400,
    message: "(#131057) Account in maintenance mode",
    details: "Business Account is in maintenance mode, such as during a throughput upgrade.",
  },
  131050: {
    status: 400,
    message:
      "(#131050) Unable to deliver the message. This recipient has chosen to stop receiving marketing messages on WhatsApp from your business.",
    details:
      "Unable to deliver the message. This recipient has chosen to stop receiving marketing messages on WhatsApp from your business.",
  },
  131042: {
    status: 400,
    message: "(#131042) Business eligibility payment issue",
    details: "There was an error related to your payment method.",
  },
  368: {
    status: 400,
    message: "(#368) Temporarily blocked for policies violations",
    details: "The WhatsApp Business Account associated with the app has been restricted or disabled for violating a platform policy.",
  },
} as const;

export type FakeWhatsAppMode =
  /** Accept every message (the default). */
  | { kind: "ok" }
  /** 429 with `Retry-After` (seconds) and Graph error 130429. */
  | { kind: "rate_limited"; retryAfter?: number }
  /** An HTTP status with an optional body (JSON unless a string). */
  | { kind: "status"; status: number; body?: unknown; headers?: Record<string, string> }
  /** A Graph error: `{ error: { message, type, code, error_subcode?, fbtrace_id } }`. */
  | { kind: "graph_error"; status?: number; code: number; message?: string; subcode?: number; details?: string }
  /**
   * One of Meta's refusals as the Cloud API answers it (its status, message and details): the
   * ones that mean "not now" (130429, 131056, 131057), the user's marketing opt-out (131050),
   * and those that stop the number (131042 payment, 368 policy block).
   */
  | { kind: "refusal"; code: keyof typeof REFUSALS }
  /** Never answer (the client times out). */
  | { kind: "hang" }
  /** Close the connection without an answer. */
  | { kind: "drop" };

/** A message template as the Cloud API lists it (`GET /{waba-id}/message_templates`). */
export type FakeTemplate = {
  id?: string;
  name: string;
  language: string;
  status: "APPROVED" | "PENDING" | "REJECTED" | "PAUSED" | "DISABLED";
  category: "MARKETING" | "UTILITY" | "AUTHENTICATION";
  parameter_format?: "POSITIONAL" | "NAMED";
  components: { type: string; format?: string; text?: string; example?: unknown; buttons?: unknown[] }[];
};

export type FakeWhatsApp = {
  /** The templates of each business account id, as Meta lists them; tests edit them. */
  templates: Map<string, FakeTemplate[]>;
  /**
   * Meta's 24-hour window, per recipient (digits): `windowFor` opens it now (a message from
   * that number arrived). A free-form message to a number whose window is closed is accepted
   * and then fails with 131047, as Meta reports it: a `failed` status webhook, kept in
   * `pendingReports` for the test to post. Off unless `enforceWindow` is set.
   */
  enforceWindow: boolean;
  openWindow(phone: string, at?: number): void;
  pendingReports: { phoneNumberId: string; report: StatusReport }[];
  /** The base URL to use as a channel's `api_base_url`, e.g. `http://127.0.0.1:41234/v21.0`. */
  url: string;
  requests: FakeWhatsAppRequest[];
  /** Answer the next `times` requests (all, when absent) this way; then back to the previous mode. */
  setMode(mode: FakeWhatsAppMode, opts?: { times?: number }): void;
  setLatency(ms: number): void;
  /** Resolves once `count` requests have arrived. */
  waitForRequests(count: number, timeoutMs?: number): Promise<FakeWhatsAppRequest[]>;
  /**
   * Resolves once every connection open now has closed, so everything its client sent has been
   * read and recorded: a client killed with bytes still on their way has them read after its
   * death, since its kernel closes its connections only after them.
   */
  connectionsClosed(): Promise<void>;
  reset(): void;
  close(): Promise<void>;
};

export async function startFakeWhatsApp(opts: { latencyMs?: number; port?: number; version?: string } = {}): Promise<FakeWhatsApp> {
  const requests: FakeWhatsAppRequest[] = [];
  let latencyMs = opts.latencyMs ?? 0;
  let mode: FakeWhatsAppMode = { kind: "ok" };
  const queued: FakeWhatsAppMode[] = [];
  const sockets = new Set<Socket>();
  const waiters = requestWaiters(requests, "fake WhatsApp");
  const templates = new Map<string, FakeTemplate[]>();
  const windows = new Map<string, number>();
  const pendingReports: { phoneNumberId: string; report: StatusReport }[] = [];
  const state: FakeState = { templates, windows, pendingReports, enforceWindow: false };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      let body: unknown;
      try {
        body = raw ? JSON.parse(raw) : undefined;
      } catch {
        body = undefined;
      }
      const path = req.url ?? "/";
      const record: FakeWhatsAppRequest = {
        method: req.method ?? "",
        path,
        phoneNumberId: /\/([^/]+)\/messages$/.exec(path.split("?")[0]!)?.[1] ?? null,
        headers: req.headers,
        body,
        raw,
        at: Date.now(),
      };
      requests.push(record);
      waiters.recorded();
      const current = queued.shift() ?? mode;
      const answer = () => respond(res, record, current, state);
      if (latencyMs > 0) setTimeout(answer, latencyMs);
      else answer();
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/${opts.version ?? "v21.0"}`,
    templates,
    get enforceWindow() {
      return state.enforceWindow;
    },
    set enforceWindow(on: boolean) {
      state.enforceWindow = on;
    },
    openWindow(phone, at = Date.now()) {
      windows.set(phone.replace(/\D/g, ""), at + 24 * 60 * 60_000);
    },
    pendingReports,
    requests,
    setMode(next, o = {}) {
      if (o.times === undefined) {
        queued.length = 0;
        mode = next;
      } else {
        for (let i = 0; i < o.times; i++) queued.push(next);
      }
    },
    setLatency(ms) {
      latencyMs = ms;
    },
    waitForRequests: waiters.waitFor,
    async connectionsClosed() {
      await Promise.all([...sockets].map((socket) => (socket.closed ? undefined : once(socket, "close"))));
    },
    reset() {
      requests.length = 0;
      queued.length = 0;
      mode = { kind: "ok" };
      latencyMs = opts.latencyMs ?? 0;
    },
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

type FakeState = {
  templates: Map<string, FakeTemplate[]>;
  windows: Map<string, number>;
  pendingReports: { phoneNumberId: string; report: StatusReport }[];
  enforceWindow: boolean;
};

function respond(res: ServerResponse, record: FakeWhatsAppRequest, mode: FakeWhatsAppMode, state: FakeState): void {
  const traceId = randomBytes(8).toString("base64url");
  const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { "content-type": "application/json", "x-fb-trace-id": traceId, ...headers });
    res.end(typeof body === "string" ? body : JSON.stringify(body));
  };
  const graphError = (
    status: number,
    code: number,
    message: string,
    extra: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ) => json(status, { error: { message, type: "OAuthException", code, ...extra, fbtrace_id: traceId } }, headers);

  if (mode.kind === "hang") return;
  if (mode.kind === "drop") {
    res.socket?.destroy();
    return;
  }
  if (mode.kind === "rate_limited") {
    return graphError(
      429,
      130429,
      "(#130429) Rate limit hit",
      {},
      mode.retryAfter !== undefined ? { "retry-after": String(mode.retryAfter) } : {},
    );
  }
  if (mode.kind === "status") return json(mode.status, mode.body ?? "", mode.headers);
  if (mode.kind === "refusal") {
    const r = REFUSALS[mode.code];
    return graphError(r.status, mode.code, r.message, { error_data: { messaging_product: "whatsapp", details: r.details } });
  }
  if (mode.kind === "graph_error") {
    return graphError(mode.status ?? 400, mode.code, mode.message ?? `(#${mode.code}) Graph error`, {
      ...(mode.subcode !== undefined ? { error_subcode: mode.subcode } : {}),
      ...(mode.details ? { error_data: { messaging_product: "whatsapp", details: mode.details } } : {}),
    });
  }
  // The real API's checks that matter to a client: the route, the bearer token, the JSON.
  if (!/^Bearer \S+$/.test(String(record.headers.authorization ?? ""))) return graphError(401, 190, "Invalid OAuth access token.");
  const url = new URL(record.path, "http://fake");
  const listing = /\/([^/]+)\/message_templates$/.exec(url.pathname);
  if (record.method === "GET" && listing) return json(200, templatePage(state.templates.get(listing[1]!) ?? [], url));
  if (record.method !== "POST" || !record.phoneNumberId) return graphError(400, 100, "Unsupported request");
  const body = record.body as
    | {
        messaging_product?: string;
        to?: string;
        /** A business-scoped user id, instead of `to` (`to` wins when both are given). */
        recipient?: string;
        type?: string;
        template?: { name?: string; language?: { code?: string }; components?: unknown };
        biz_opaque_callback_data?: string;
      }
    | undefined;
  // Mark read (and typing): `{ messaging_product, status: "read", message_id, typing_indicator? }` -> `{ success: true }`.
  const read = record.body as { messaging_product?: string; status?: string; message_id?: string; typing_indicator?: { type?: string } };
  if (read?.status === "read") {
    const typingOk = read.typing_indicator === undefined || read.typing_indicator?.type === "text";
    if (read.messaging_product !== "whatsapp" || !/^wamid\./.test(read.message_id ?? "") || !typingOk) {
      return graphError(400, 100, "(#100) Invalid parameter", {
        error_data: { messaging_product: "whatsapp", details: "message_id must be a received message's wamid" },
      });
    }
    return json(200, { success: true });
  }
  if (body?.messaging_product !== "whatsapp" || !(body.to || body.recipient) || !body.type) {
    return graphError(400, 100, "(#100) Invalid parameter", {
      error_data: { messaging_product: "whatsapp", details: "messaging_product, to (or recipient) and type are required" },
    });
  }
  const addressee = body.to ?? body.recipient!;
  if (body.type === "template") {
    // Meta checks the template by name and language across the account's templates.
    const known = [...state.templates.values()]
      .flat()
      .find((t) => t.name === body.template?.name && t.language === body.template?.language?.code);
    if (!known) {
      return graphError(404, 132001, "(#132001) Template name does not exist in the translation", {
        error_data: {
          messaging_product: "whatsapp",
          details: `template name (${body.template?.name}) does not exist in ${body.template?.language?.code}`,
        },
      });
    }
    if (known.status === "PAUSED") return graphError(400, 132015, "(#132015) Template is paused");
    const expected = (JSON.stringify(known.components).match(/\{\{[^}]+\}\}/g) ?? []).length;
    const given = (JSON.stringify(body.template?.components ?? []).match(/"type":"text"/g) ?? []).length;
    if (given !== expected) {
      return graphError(400, 132000, "(#132000) Number of parameters does not match the expected number of params", {
        error_data: {
          messaging_product: "whatsapp",
          details: `body: number of localizable_params (${given}) does not match the expected number of params (${expected})`,
        },
      });
    }
  }
  record.wamid = `wamid.${randomBytes(24).toString("base64url")}`;
  const windowClosed = body.type !== "template" && (state.windows.get(addressee) ?? 0) <= Date.now();
  if (state.enforceWindow && windowClosed) {
    // Meta accepts the request and reports the failure afterwards, in a status webhook.
    state.pendingReports.push({
      phoneNumberId: record.phoneNumberId,
      report: {
        wamid: record.wamid,
        status: "failed",
        recipient: addressee,
        ...(body.biz_opaque_callback_data ? { bizOpaqueCallbackData: body.biz_opaque_callback_data } : {}),
        errors: [
          {
            code: 131047,
            title: "Re-engagement message",
            message: "Re-engagement message",
            error_data: {
              details: "Message failed to send because more than 24 hours have passed since the customer last replied to this number.",
            },
          },
        ],
      },
    });
  }
  const contact = body.to ? { input: body.to, wa_id: body.to } : { input: addressee, user_id: addressee };
  json(200, { messaging_product: "whatsapp", contacts: [contact], messages: [{ id: record.wamid }] });
}

/** One page of Meta's listing: `{ data, paging: { cursors: { before, after }, next? } }`. */
function templatePage(all: FakeTemplate[], url: URL): Record<string, unknown> {
  const limit = Math.min(Number(url.searchParams.get("limit") ?? 25) || 25, 100);
  const start = url.searchParams.get("after") ? Number(Buffer.from(url.searchParams.get("after")!, "base64url").toString()) : 0;
  const data = all.slice(start, start + limit).map((t, i) => ({
    id: t.id ?? String(1_689_556_908_129_000 + start + i),
    parameter_format: "POSITIONAL",
    ...t,
  }));
  const cursor = (n: number) => Buffer.from(String(n)).toString("base64url");
  const after = start + data.length;
  const next = new URL(url);
  next.searchParams.set("after", cursor(after));
  return {
    data,
    paging: { cursors: { before: cursor(start), after: cursor(after) }, ...(after < all.length ? { next: next.toString() } : {}) },
  };
}

// ---- Webhooks the Cloud API sends to /api/providers/whatsapp ----

export type StatusReport = {
  wamid: string;
  status: "sent" | "delivered" | "read" | "failed";
  /** Unix seconds; now by default. */
  timestamp?: number;
  recipient?: string;
  /**
   * The recipient's business-scoped user id (`recipient_user_id`), and whether the phone is
   * withheld (no `recipient_id`), as Meta's reports carry them since 2026.
   */
  recipientUserId?: string;
  phoneWithheld?: boolean;
  /** The parent user id, under the spelling given (Meta's pages use three). */
  parent?: { key: "parent_recipient_user_id" | "parent_user_id" | "recipient_parent_user_id"; id: string };
  /** What the send carried as `biz_opaque_callback_data`: Meta returns it on each of the message's reports. */
  bizOpaqueCallbackData?: string;
  errors?: { code: number; title: string; message?: string; error_data?: { details: string } }[];
  /** Meta's per-message pricing (since July 2025) on every report but a failure's; a charged utility message by default. */
  pricing?: { category: string; type: string };
};

function envelope(phoneNumberId: string, value: Record<string, unknown>) {
  return {
    object: "whatsapp_business_account",
    entry: [
      {
        id: "102290129340398",
        changes: [
          {
            field: "messages",
            value: {
              messaging_product: "whatsapp",
              metadata: { display_phone_number: "15550783881", phone_number_id: phoneNumberId },
              ...value,
            },
          },
        ],
      },
    ],
  };
}

/** The webhook JSON of status reports (`entry[].changes[].value.statuses[]`). */
export function statusWebhook(phoneNumberId: string, reports: StatusReport[]): Record<string, unknown> {
  return envelope(phoneNumberId, {
    statuses: reports.map((r) => ({
      id: r.wamid,
      status: r.status,
      timestamp: String(r.timestamp ?? Math.floor(Date.now() / 1000)),
      ...(r.phoneWithheld ? {} : { recipient_id: r.recipient ?? "5511987654321" }),
      ...(r.recipientUserId ? { recipient_user_id: r.recipientUserId } : {}),
      ...(r.parent ? { [r.parent.key]: r.parent.id } : {}),
      ...(r.bizOpaqueCallbackData !== undefined ? { biz_opaque_callback_data: r.bizOpaqueCallbackData } : {}),
      ...(r.status !== "failed"
        ? {
            conversation: { id: randomBytes(16).toString("hex"), origin: { type: "utility" } },
            // As Meta's 2026 reports spell it (`billable` is deprecated but still sent).
            pricing: {
              billable: (r.pricing?.type ?? "regular") === "regular",
              pricing_model: "PMP",
              type: r.pricing?.type ?? "regular",
              category: r.pricing?.category ?? "utility",
            },
          }
        : {}),
      ...(r.errors ? { errors: r.errors } : {}),
    })),
  });
}

/** The webhook JSON of an inbound text message (`entry[].changes[].value.messages[]`). */
export function inboundTextWebhook(phoneNumberId: string, from: string, text: string): Record<string, unknown> {
  return envelope(phoneNumberId, {
    contacts: [{ profile: { name: "Ana" }, wa_id: from }],
    messages: [
      {
        from,
        id: `wamid.${randomBytes(24).toString("base64url")}`,
        timestamp: String(Math.floor(Date.now() / 1000)),
        type: "text",
        text: { body: text },
      },
    ],
  });
}

/** An inbound message of any kind (`messages[]`): media, interactive replies, template buttons. */
export function inboundWebhook(
  phoneNumberId: string,
  from: string,
  message: Record<string, unknown>,
  name = "Ana",
): Record<string, unknown> {
  return envelope(phoneNumberId, {
    contacts: [{ profile: { name }, wa_id: from }],
    messages: [
      { from, id: `wamid.${randomBytes(24).toString("base64url")}`, timestamp: String(Math.floor(Date.now() / 1000)), ...message },
    ],
  });
}

/**
 * D88: an inbound message whose sender's phone is withheld, as Meta's page prints it: the
 * sender by `contacts[].user_id` and `messages[].from_user_id`, no `wa_id` or `from`; the
 * username and the parent id only when given (the parent under the spelling given).
 */
export function inboundByUserIdWebhook(
  phoneNumberId: string,
  sender: {
    userId: string;
    name?: string;
    username?: string;
    phone?: string;
    parent?: { key: "parent_user_id" | "parent_recipient_user_id" | "recipient_parent_user_id"; id: string };
  },
  message: Record<string, unknown> = { type: "text", text: { body: "Hi" } },
): Record<string, unknown> {
  return envelope(phoneNumberId, {
    contacts: [
      {
        profile: { name: sender.name ?? "Sheena Nelson", ...(sender.username ? { username: sender.username } : {}) },
        ...(sender.phone ? { wa_id: sender.phone } : {}),
        user_id: sender.userId,
        ...(sender.parent ? { [sender.parent.key]: sender.parent.id } : {}),
      },
    ],
    messages: [
      {
        ...(sender.phone ? { from: sender.phone } : {}),
        from_user_id: sender.userId,
        ...(sender.parent ? { from_parent_user_id: sender.parent.id } : {}),
        id: `wamid.${randomBytes(24).toString("base64url")}`,
        timestamp: String(Math.floor(Date.now() / 1000)),
        ...message,
      },
    ],
  });
}

/** D88: the `system` message telling that a user's id changed: `user_changed_user_id` with the new `user_id`. */
export function userIdChangedWebhook(phoneNumberId: string, oldUserId: string, newUserId: string): Record<string, unknown> {
  return envelope(phoneNumberId, {
    contacts: [{ profile: { name: "Sheena Nelson" }, user_id: oldUserId }],
    messages: [
      {
        from_user_id: oldUserId,
        id: `wamid.${randomBytes(24).toString("base64url")}`,
        timestamp: String(Math.floor(Date.now() / 1000)),
        type: "system",
        system: { body: `User ${oldUserId} changed to ${newUserId}`, user_id: newUserId, type: "user_changed_user_id" },
      },
    ],
  });
}

/** Meta's `message_template_status_update` webhook for a business account's template. */
export function templateStatusWebhook(
  wabaId: string,
  t: { name: string; language: string; event: string; id?: string; category?: string },
): Record<string, unknown> {
  return {
    object: "whatsapp_business_account",
    entry: [
      {
        id: wabaId,
        time: Math.floor(Date.now() / 1000),
        changes: [
          {
            field: "message_template_status_update",
            value: {
              event: t.event,
              message_template_id: Number(t.id ?? 1689556908129832),
              message_template_name: t.name,
              message_template_language: t.language,
              reason: t.event === "PAUSED" ? "NONE" : null,
              message_template_category: t.category ?? "UTILITY",
              ...(t.event === "PAUSED"
                ? { other_info: { title: "FIRST_PAUSE", description: "Your WhatsApp message template has been paused for 3 hours." } }
                : {}),
            },
          },
        ],
      },
    ],
  };
}

/** `X-Hub-Signature-256` of a raw body, as Meta computes it with the app secret. */
export function signWebhook(raw: string, appSecret: string): string {
  return `sha256=${createHmac("sha256", appSecret).update(raw).digest("hex")}`;
}

/** Posts a webhook as the Cloud API does: the raw JSON, signed with the app secret. */
export async function postWebhook(endpoint: string, payload: unknown, appSecret: string | null): Promise<Response> {
  const raw = JSON.stringify(payload);
  return fetch(endpoint, {
    method: "POST",
    headers: { "content-type": "application/json", ...(appSecret ? { "x-hub-signature-256": signWebhook(raw, appSecret) } : {}) },
    body: raw,
  });
}
