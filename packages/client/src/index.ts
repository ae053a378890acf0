import { errorOf, SvcConnectionError, SvcError, type ApiErrorBody } from "./errors.js";
import type { components, operations, paths } from "./schema.js";

export {
  SvcApiError,
  SvcAuthenticationError,
  SvcConflictError,
  SvcConnectionError,
  SvcError,
  SvcForbiddenError,
  SvcInvalidRequestError,
  SvcNotFoundError,
  SvcQuotaExceededError,
  SvcRateLimitError,
  WebhookVerificationError,
  type ErrorCode,
  type ErrorType,
  type KnownErrorCode,
} from "./errors.js";
export { verifyWebhook, type EventName, type VerifyOptions, type WebhookEvent, type WebhookHeaders } from "./webhooks.js";
export type { components, paths } from "./schema.js";

type Schemas = components["schemas"];
export type Message = Schemas["Message"];
export type MessageDryRun = Schemas["MessageDryRun"];
export type Reachability = Schemas["Reachability"];
export type Contact = Schemas["Contact"];
export type Tag = Schemas["Tag"];
export type CustomField = Schemas["CustomField"];
export type Flow = Schemas["Flow"];
export type FlowRun = Schemas["FlowRun"];
export type Usage = Schemas["Usage"];
export type MarkedRead = paths["/messages/{id}/read"]["post"]["responses"]["200"]["content"]["application/json"];
export type Channel = paths["/channels"]["get"]["responses"]["200"]["content"]["application/json"][number];
export type ChannelDnsCheck = paths["/channels/{id}/dns-check"]["post"]["responses"]["200"]["content"]["application/json"];
type Address = "phone" | "email" | "whatsapp_user_id" | "contact_id";
type Only<T, K extends PropertyKey> = T & { [P in Exclude<K, keyof T>]?: never };
/**
 * Exactly one of `phone`, `email`, `whatsapp_user_id` or `contact_id` (`name` only beside one of
 * the first three): a recipient with two addresses does not compile.
 */
export type Recipient =
  | Only<Schemas["RecipientByPhone"], Address>
  | Only<Schemas["RecipientByEmail"], Address>
  | Only<Schemas["RecipientByWhatsAppUserId"], Address>
  | Only<Schemas["RecipientByContactId"], Address | "name">;
/** `T` with its `to` an exclusive `Recipient` (each member of a union on its own). */
type WithRecipient<T> = T extends { to: unknown }
  ? Omit<T, "to"> & { to: Recipient }
  : T extends { to?: unknown }
    ? Omit<T, "to"> & { to?: Recipient }
    : T;
export type SendMessageRequest = WithRecipient<Schemas["SendMessageRequest"]>;
export type SendBatchRequest = Omit<Schemas["BatchMessageRequest"], "messages"> & {
  messages: WithRecipient<Schemas["BatchMessageRequest"]["messages"][number]>[];
};
/** One item of a batch's answer, in the place of its message: the message (it has an `id`), or `{ error }` (`param` starts with `messages.<index>`). */
export type BatchItem = paths["/messages/batch"]["post"]["responses"]["200"]["content"]["application/json"]["data"][number];
export type UpsertContactRequest = Schemas["UpsertContactRequest"];
export type CreateTagRequest = Schemas["CreateTagRequest"];
export type CreateFieldRequest = Schemas["CreateFieldRequest"];
export type EnrollRequest = WithRecipient<Schemas["EnrollFlowRequest"]>;
export type UnenrollRequest = WithRecipient<Schemas["UnenrollFlowRequest"]>;
export type UnenrollResult = Schemas["UnenrollResult"];
export type KeyCheck = Schemas["KeyCheck"];
export type ContactEvent = Schemas["ContactEvent"];
export type RecordEventRequest = WithRecipient<Schemas["RecordEventRequest"]>;
export type ErasedContact = Schemas["ErasedContact"];
export type WhatsAppTemplate = Schemas["WhatsAppTemplate"];
export type WebhookEndpoint = Schemas["WebhookEndpoint"];
export type CreatedWebhookEndpoint = Schemas["CreatedWebhookEndpoint"];
export type CreateWebhookEndpointRequest = Schemas["CreateWebhookEndpointRequest"];
export type UpdateWebhookEndpointRequest = Schemas["UpdateWebhookEndpointRequest"];
export type RotatedSecret = Schemas["RotatedSecret"];
export type WebhookTestResult = Schemas["WebhookTestResult"];
export type WebhookDelivery = Schemas["WebhookDelivery"];
export type Run = Schemas["Run"];
export type RunWithHistory = Schemas["RunWithHistory"];
export type Suppression = Schemas["Suppression"];
export type AddSuppressionRequest = Schemas["AddSuppressionRequest"];
/** Filters of `GET /suppressions` (`after` is the last address of the previous page). */
export type SuppressionListQuery = ListQuery & { reason?: Suppression["reason"] };
export type FlowStats = Schemas["FlowStats"];
export type FlowPreview = Schemas["FlowPreview"];
/** A flow document as a save takes it, with `migrate` (`keep` or `move`). */
export type PreviewFlowRequest = Schemas["PreviewFlowRequest"];
/** A flow with the document of its current version (every step with its `id`). */
export type FlowWithDocument = Schemas["FlowWithDocument"];
/** A flow document as the service writes it: what `flows.get` answers and `flows.replace` takes back. */
export type FlowDocument = Schemas["FlowDocument"];
export type FlowVersion = Schemas["FlowVersion"];
export type CreateFlowRequest = Schemas["CreateFlowRequest"];
/** A whole document with `migrate`: `keep` (the default) or `move`. */
export type ReplaceFlowRequest = Schemas["ReplaceFlowRequest"];
export type FlowStatus = Flow["status"];
/** Filters of `GET /flows`: one status (default `active`). */
export type FlowListQuery = ListQuery & { status?: FlowStatus };
/** Filters of the contact list; `phone` and `email` match as the lookup does (any notation, any case). */
export type ContactListQuery = ListQuery & {
  tag_id?: string;
  created_after?: string;
  updated_after?: string;
  phone?: string;
  email?: string;
  whatsapp_user_id?: string;
};

/** Paging of every list: `limit` 1 to 100, `after` the last id of the previous page. */
export type ListQuery = { limit?: number; after?: string };
/** Filters of `GET /messages`. */
export type MessageListQuery = ListQuery & {
  status?: Message["status"];
  channel?: Message["channel"];
  direction?: "outbound" | "inbound";
  contact_id?: string;
  created_after?: string;
  created_before?: string;
};
/** Filters of `GET /events`. */
export type EventListQuery = ListQuery & { contact_id?: string; name?: string; created_after?: string; created_before?: string };
/** Filters of `GET /flows/{flow_id}/runs`. */
export type RunListQuery = ListQuery & { status?: Run["status"]; contact_id?: string; key?: string };
/** `whatsapp_user_id`, `phone` or `email` (with several, the first of these is used). */
export type FindContactQuery =
  | { phone: string; email?: string; whatsapp_user_id?: string }
  | { phone?: string; email: string; whatsapp_user_id?: string }
  | { phone?: string; email?: string; whatsapp_user_id: string };
/** Filters of `GET /whatsapp/templates`. */
export type TemplateListQuery = NonNullable<operations["whatsapp-templates"]["parameters"]["query"]>;
/** Filters of `GET /webhook-endpoints/{id}/deliveries`. */
export type DeliveryListQuery = ListQuery & { status?: WebhookDelivery["status"] };

/** What a response said beside its body: `.withResponse()` of any call. */
export type ResponseInfo = {
  status: number;
  /** `Request-Id`: quote it to support. */
  requestId: string | null;
  /** `Idempotent-Replayed: true`: the answer is the stored one of an earlier request with the same key. */
  idempotentReplayed: boolean;
  /** The rate limit after this request (`RateLimit-*` headers), when the service sent them. */
  rateLimit: { limit: number; remaining: number; reset: number } | null;
};

export type SvcOptions = {
  /** `svc_test_…` or `svc_live_…`. */
  apiKey: string;
  /** The service's origin, e.g. `https://svc.example.com` (`/api/v1` is added). */
  baseUrl: string;
  /** Retries of a 429, a 5xx or a network failure (default 2). */
  maxRetries?: number;
  /** The longest wait before a retry, in seconds; a longer `Retry-After` is not waited for (default 30). */
  maxRetryDelaySeconds?: number;
  /** Per-request timeout in milliseconds (default 30 000). */
  timeoutMs?: number;
  /** Retries of a `409` `idempotency_key_in_use` (the same key still in progress), with backoff (default 5). */
  maxInProgressRetries?: number;
  /** A fetch implementation (default: the global `fetch`). */
  fetch?: typeof fetch;
};

export type RequestOptions = {
  /** For POSTs: sent as `Idempotency-Key`; one is generated when absent, and kept across retries. */
  idempotencyKey?: string;
  signal?: AbortSignal;
};

type Query = Record<string, string | number | undefined>;

/** A call's answer with what its response said beside the body. */
export type WithResponse<T> = { data: T; response: ResponseInfo };

/**
 * What every call returns: a promise of the answer's body, and `.withResponse()` for the body with
 * that one response's metadata (request id, replay flag, rate limit, status). Each call has its
 * own, so calls running at once never see each other's.
 */
export interface SvcPromise<T> extends Promise<T> {
  withResponse(): Promise<WithResponse<T>>;
}

/**
 * What every list returns: every item, page after page (`for await`), and `.withResponse()` for
 * the pages themselves, each with its response's metadata.
 */
export interface SvcList<T> extends AsyncGenerator<T> {
  withResponse(): AsyncGenerator<WithResponse<T[]>>;
}

/** For `client.request`: the query, the JSON body, and the options of every call. */
export type RawRequestOptions = RequestOptions & { query?: Query; body?: unknown };

type Answer<T> = { data: T; headers: Headers; response: ResponseInfo };

function svcPromise<T>(answer: Promise<Answer<T>>): SvcPromise<T> {
  const data = answer.then((a) => a.data) as SvcPromise<T>;
  // Whichever of the two the caller awaits carries a failure; the other must not be reported unhandled.
  data.catch(() => undefined);
  data.withResponse = () => answer.then(({ data, response }) => ({ data, response }));
  return data;
}

/** The official client of the svc API. */
export class Svc {
  readonly #options: Required<Omit<SvcOptions, "fetch">> & { fetch: typeof fetch };
  /**
   * The status and headers of the latest answer of any call of this client, null before the first.
   * @deprecated Shared by every call: wrong as soon as two run at once. Use `.withResponse()` of the call.
   */
  lastResponse: ResponseInfo | null = null;

  constructor(options: SvcOptions) {
    this.#options = {
      maxRetries: 2,
      maxInProgressRetries: 5,
      maxRetryDelaySeconds: 30,
      timeoutMs: 30_000,
      ...options,
      baseUrl: options.baseUrl.replace(/\/+$/, ""),
      fetch: options.fetch ?? ((input, init) => fetch(input, init)),
    };
  }

  /** `GET /`: checks the key; answers its workspace and mode. */
  check(options?: RequestOptions): SvcPromise<KeyCheck> {
    return this.#get("/", undefined, options);
  }

  readonly messages = {
    send: (body: SendMessageRequest, options?: RequestOptions): SvcPromise<Message> => this.#post("/messages", body, options),
    /** Runs every check of `send` and answers the message it would create, rendered and with no id; writes and sends nothing. */
    dryRun: (body: SendMessageRequest, options?: RequestOptions): SvcPromise<MessageDryRun> =>
      this.#post("/messages", { ...body, dry_run: true }, options),
    /** Up to 1,000 messages; answered item by item, in order. One idempotency key covers the batch. */
    batch: (body: SendBatchRequest, options?: RequestOptions): SvcPromise<{ data: BatchItem[] }> =>
      this.#post("/messages/batch", body, options),
    /** Cancels a message not yet handed to the provider (a scheduled one); a `409` `message_not_cancelable` otherwise. */
    cancel: (id: string, options?: RequestOptions): SvcPromise<Message> =>
      this.#post(`/messages/${encodeURIComponent(id)}/cancel`, undefined, options),
    get: (id: string, options?: RequestOptions): SvcPromise<Message> =>
      this.#get(`/messages/${encodeURIComponent(id)}`, undefined, options),
    /** Marks a received WhatsApp message read (with the typing indicator when asked); a `409` `not_inbound` for any other message. */
    read: (id: string, body: { typing?: boolean } = {}, options?: RequestOptions): SvcPromise<MarkedRead> =>
      this.#post(`/messages/${encodeURIComponent(id)}/read`, body, options),
    list: (query?: MessageListQuery, options?: RequestOptions): SvcList<Message> => this.#list("/messages", query, options),
  };

  readonly contacts = {
    upsert: (body: UpsertContactRequest, options?: RequestOptions): SvcPromise<Contact> => this.#post("/contacts", body, options),
    get: (id: string, options?: RequestOptions): SvcPromise<Contact> =>
      this.#get(`/contacts/${encodeURIComponent(id)}`, undefined, options),
    /** The one contact with this WhatsApp user id, phone or e-mail; a `404` when none. */
    find: (query: FindContactQuery, options?: RequestOptions): SvcPromise<Contact> => this.#get("/contacts", query, options),
    /** Every contact, oldest first, filtered by tag, time, phone or e-mail, page after page. */
    // `limit` always sent: `phone`, `email` or `whatsapp_user_id` alone would ask for the one contact instead of a list.
    list: (query?: ContactListQuery, options?: RequestOptions): SvcList<Contact> =>
      this.#list("/contacts", { limit: 100, ...query }, options),
    /** Whether a message would reach the contact now, per channel, and every reason it would not; with `flow_id`, that flow's quiet hours and caps too. */
    reachability: (id: string, query?: { flow_id?: string }, options?: RequestOptions): SvcPromise<Reachability> =>
      this.#get(`/contacts/${encodeURIComponent(id)}/reachability`, query, options),
    /** Erases the contact for privacy laws: its journeys stop and its data leaves every message and event. */
    erase: (id: string, options?: RequestOptions): SvcPromise<ErasedContact> =>
      this.#call("DELETE", `/contacts/${encodeURIComponent(id)}`, undefined, options),
  };

  readonly templates = {
    /** The WhatsApp message templates of the workspace's channels, as last synced from Meta. */
    list: (query?: TemplateListQuery, options?: RequestOptions): SvcList<WhatsAppTemplate> =>
      this.#list("/whatsapp/templates", query, options),
  };

  readonly webhookEndpoints = {
    /** Every endpoint of the workspace (at most 50), newest first, page after page. */
    list: (query?: ListQuery, options?: RequestOptions): SvcList<WebhookEndpoint> => this.#list("/webhook-endpoints", query, options),
    /** The answer's `secret` is shown this once. */
    create: (body: CreateWebhookEndpointRequest, options?: RequestOptions): SvcPromise<CreatedWebhookEndpoint> =>
      this.#post("/webhook-endpoints", body, options),
    get: (id: string, options?: RequestOptions): SvcPromise<WebhookEndpoint> =>
      this.#get(`/webhook-endpoints/${encodeURIComponent(id)}`, undefined, options),
    update: (id: string, body: UpdateWebhookEndpointRequest, options?: RequestOptions): SvcPromise<WebhookEndpoint> =>
      this.#call("PATCH", `/webhook-endpoints/${encodeURIComponent(id)}`, body, options),
    delete: (id: string, options?: RequestOptions): SvcPromise<{ id: string; deleted: true }> =>
      this.#call("DELETE", `/webhook-endpoints/${encodeURIComponent(id)}`, undefined, options),
    /** A new secret (shown this once); the previous one stays valid for 24 hours. */
    rotateSecret: (id: string, options?: RequestOptions): SvcPromise<RotatedSecret> =>
      this.#post(`/webhook-endpoints/${encodeURIComponent(id)}/rotate-secret`, undefined, options),
    /** Sends one signed sample delivery and answers its first attempt. */
    test: (id: string, body: { event?: WebhookDelivery["event"] } = {}, options?: RequestOptions): SvcPromise<WebhookTestResult> =>
      this.#post(`/webhook-endpoints/${encodeURIComponent(id)}/test`, body, options),
    deliveries: (id: string, query?: DeliveryListQuery, options?: RequestOptions): SvcList<WebhookDelivery> =>
      this.#list(`/webhook-endpoints/${encodeURIComponent(id)}/deliveries`, query, options),
    redeliver: (deliveryId: string, options?: RequestOptions): SvcPromise<WebhookDelivery> =>
      this.#post(`/webhook-deliveries/${encodeURIComponent(deliveryId)}/redeliver`, undefined, options),
  };

  readonly tags = {
    create: (body: CreateTagRequest, options?: RequestOptions): SvcPromise<Tag> => this.#post("/tags", body, options),
    list: (query?: ListQuery, options?: RequestOptions): SvcList<Tag> => this.#list("/tags", query, options),
    /** Removes the tag from every contact and deletes it; a `409` `in_use` while an active or paused flow names it. */
    delete: (id: string, options?: RequestOptions): SvcPromise<{ id: string; deleted: true }> =>
      this.#call("DELETE", `/tags/${encodeURIComponent(id)}`, undefined, options),
  };

  readonly fields = {
    create: (body: CreateFieldRequest, options?: RequestOptions): SvcPromise<CustomField> => this.#post("/custom-fields", body, options),
    list: (query?: ListQuery, options?: RequestOptions): SvcList<CustomField> => this.#list("/custom-fields", query, options),
    /** Removes the field's value from every contact and deletes it; a `409` `in_use` while an active or paused flow names it. */
    delete: (id: string, options?: RequestOptions): SvcPromise<{ id: string; deleted: true }> =>
      this.#call("DELETE", `/custom-fields/${encodeURIComponent(id)}`, undefined, options),
  };

  readonly flows = {
    /** The flows of one status (`active` by default), oldest first. */
    list: (query?: FlowListQuery, options?: RequestOptions): SvcList<Flow> => this.#list("/flows", query, options),
    /** Creates a flow from a document (`draft` unless it says otherwise); answers it at version 1 with its document. */
    create: (document: CreateFlowRequest, options?: RequestOptions): SvcPromise<FlowWithDocument> =>
      this.#post("/flows", document, options),
    /** The flow with its current document: keep it in git, send it back with `replace`. */
    get: (flowId: string, options?: RequestOptions): SvcPromise<FlowWithDocument> =>
      this.#get(`/flows/${encodeURIComponent(flowId)}`, undefined, options),
    /** Saves a whole document; a new version once the flow has left draft and the document changed. */
    replace: (flowId: string, document: ReplaceFlowRequest, options?: RequestOptions): SvcPromise<FlowWithDocument> =>
      this.#call("PUT", `/flows/${encodeURIComponent(flowId)}`, document, options),
    /** `active`, `paused` or `archived` (final). */
    setStatus: (flowId: string, status: Exclude<FlowStatus, "draft">, options?: RequestOptions): SvcPromise<FlowWithDocument> =>
      this.#post(`/flows/${encodeURIComponent(flowId)}/status`, { status }, options),
    /** The flow's versions, oldest first, each with its document. */
    versions: (flowId: string, query?: ListQuery, options?: RequestOptions): SvcList<FlowVersion> =>
      this.#list(`/flows/${encodeURIComponent(flowId)}/versions`, query, options),
    enroll: (flowId: string, body: EnrollRequest, options?: RequestOptions): SvcPromise<FlowRun> =>
      this.#post(`/flows/${encodeURIComponent(flowId)}/enroll`, body, options),
    /** `flowId` may be `all`: every flow the contact is in. */
    unenroll: (flowId: string, body: UnenrollRequest, options?: RequestOptions): SvcPromise<UnenrollResult> =>
      this.#post(`/flows/${encodeURIComponent(flowId)}/unenroll`, body, options),
    /** The flow's numbers in the key's mode: runs by status, conversions, and each step of each version. */
    stats: (flowId: string, options?: RequestOptions): SvcPromise<FlowStats> =>
      this.#get(`/flows/${encodeURIComponent(flowId)}/stats`, undefined, options),
    /** What saving `document` would do to the flow's active runs; changes nothing. */
    preview: (flowId: string, document: PreviewFlowRequest, options?: RequestOptions): SvcPromise<FlowPreview> =>
      this.#post(`/flows/${encodeURIComponent(flowId)}/preview`, document, options),
  };

  readonly events = {
    /** Records what a contact did; flows react to it (triggers, waits, goals). `id` makes a retry harmless. */
    record: (body: RecordEventRequest, options?: RequestOptions): SvcPromise<ContactEvent> => this.#post("/events", body, options),
    list: (query?: EventListQuery, options?: RequestOptions): SvcList<ContactEvent> => this.#list("/events", query, options),
  };

  readonly runs = {
    /** A run with its history. */
    get: (id: string, options?: RequestOptions): SvcPromise<RunWithHistory> =>
      this.#get(`/runs/${encodeURIComponent(id)}`, undefined, options),
    list: (flowId: string, query?: RunListQuery, options?: RequestOptions): SvcList<Run> =>
      this.#list(`/flows/${encodeURIComponent(flowId)}/runs`, query, options),
  };

  /** E-mail addresses that e-mail is not sent to (hard bounces, complaints, your own entries). */
  readonly suppressions = {
    list: (query?: SuppressionListQuery, options?: RequestOptions): SvcList<Suppression> => this.#list("/suppressions", query, options),
    add: (body: AddSuppressionRequest, options?: RequestOptions): SvcPromise<Suppression> => this.#post("/suppressions", body, options),
    remove: (email: string, options?: RequestOptions): SvcPromise<Suppression> =>
      this.#call("DELETE", `/suppressions/${encodeURIComponent(email)}`, undefined, options),
  };

  readonly channels = {
    /** The workspace's connected channels, without their credentials. */
    list: (options?: RequestOptions): SvcPromise<Channel[]> => this.#get("/channels", undefined, options),
    /** Looks up an e-mail channel's DNS records now: each one's status, DMARC's alignment and policy, and `ready`. */
    dnsCheck: (id: string, options?: RequestOptions): SvcPromise<ChannelDnsCheck> =>
      this.#post(`/channels/${encodeURIComponent(id)}/dns-check`, undefined, options),
  };

  readonly usage = {
    get: (options?: RequestOptions): SvcPromise<Usage> => this.#get("/usage", undefined, options),
  };

  /**
   * Any endpoint, wrapped or not, with the same key, retries, idempotency keys (on POST) and
   * errors as the methods above: `client.request("GET", "/flows/flow_…/versions", { query: { limit: 10 } })`.
   * `path` is relative to `/api/v1`.
   */
  request<T = unknown>(method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE", path: string, options: RawRequestOptions = {}): SvcPromise<T> {
    const { query, body, ...rest } = options;
    return svcPromise(this.#request<T>(method, path, query, body, rest));
  }

  #get<T>(path: string, query: Query | undefined, options?: RequestOptions): SvcPromise<T> {
    return svcPromise(this.#request<T>("GET", path, query, undefined, options));
  }

  #post<T>(path: string, body: unknown, options?: RequestOptions): SvcPromise<T> {
    return svcPromise(this.#request<T>("POST", path, undefined, body, options));
  }

  #call<T>(method: "PATCH" | "PUT" | "DELETE", path: string, body: unknown, options?: RequestOptions): SvcPromise<T> {
    return svcPromise(this.#request<T>(method, path, undefined, body, options));
  }

  /** Every item of a list, page after page, following the `after` of each `Link: rel="next"`; `.withResponse()` gives the pages. */
  #list<T>(path: string, query: Query = {}, options?: RequestOptions): SvcList<T> {
    const request = (page: Query) => this.#request<T[]>("GET", path, page, undefined, options);
    async function* pages(): AsyncGenerator<WithResponse<T[]>> {
      let page: Query = { ...query };
      for (;;) {
        const { data, headers, response } = await request(page);
        yield { data, response };
        const after = nextAfter(headers.get("link"));
        if (!after) return;
        page = { ...page, after };
      }
    }
    async function* items(): AsyncGenerator<T> {
      for await (const { data } of pages()) yield* data;
    }
    return Object.assign(items(), { withResponse: pages });
  }

  async #request<T>(
    method: string,
    path: string,
    query: Query | undefined,
    body: unknown,
    options: RequestOptions = {},
  ): Promise<Answer<T>> {
    const { baseUrl, apiKey, maxRetries, maxInProgressRetries, maxRetryDelaySeconds, timeoutMs } = this.#options;
    const url = new URL(`${baseUrl}/api/v1${path}`);
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = { Authorization: `Bearer ${apiKey}`, Accept: "application/json" };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (method === "POST") headers["Idempotency-Key"] = options.idempotencyKey ?? crypto.randomUUID();
    let inProgress = 0;
    for (let attempt = 0; ; attempt++) {
      const signal = options.signal ? AbortSignal.any([options.signal, AbortSignal.timeout(timeoutMs)]) : AbortSignal.timeout(timeoutMs);
      let res: Response;
      try {
        res = await this.#options.fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal });
      } catch (cause) {
        if (options.signal?.aborted) throw cause;
        if (attempt >= maxRetries) throw new SvcConnectionError(`${method} ${path} failed: ${String(cause)}`, { cause });
        await sleep(backoff(attempt));
        continue;
      }
      const response = responseInfo(res);
      this.lastResponse = response;
      if (res.ok) return { data: (await res.json()) as T, headers: res.headers, response };
      const error = await apiError(res);
      // The same Idempotency-Key is still being answered (a concurrent or interrupted try):
      // wait and ask again, and the first answer is replayed once it is stored.
      if (error.code === "idempotency_key_in_use" && inProgress < maxInProgressRetries) {
        await sleep(backoff(inProgress++));
        attempt--;
        continue;
      }
      const retryable = res.status === 429 || res.status >= 500;
      const wait = retryAfter(res.headers.get("retry-after")) ?? backoff(attempt);
      if (retryable && attempt < maxRetries && wait <= maxRetryDelaySeconds * 1000) {
        await sleep(wait);
        continue;
      }
      throw error;
    }
  }
}

async function apiError(res: Response): Promise<SvcError> {
  const text = await res.text();
  let error: ApiErrorBody | undefined;
  try {
    error = (JSON.parse(text) as { error?: ApiErrorBody }).error;
  } catch {
    error = undefined;
  }
  const fallback = {
    type: res.status >= 500 ? "api_error" : "invalid_request",
    code: res.status >= 500 ? "internal_error" : "parameter_invalid",
    message: text.slice(0, 200) || res.statusText,
    param: null,
    doc_url: "",
  } satisfies ApiErrorBody;
  return errorOf(res.status, error ?? fallback, res.headers.get("request-id"));
}

function responseInfo(res: Response): ResponseInfo {
  const limit = res.headers.get("ratelimit-limit");
  return {
    status: res.status,
    requestId: res.headers.get("request-id"),
    idempotentReplayed: res.headers.get("idempotent-replayed") === "true",
    rateLimit:
      limit === null
        ? null
        : {
            limit: Number(limit),
            remaining: Number(res.headers.get("ratelimit-remaining")),
            reset: Number(res.headers.get("ratelimit-reset")),
          },
  };
}

/** `<…?after=ct_9>; rel="next"` → `ct_9`. */
function nextAfter(link: string | null): string | undefined {
  const next = link?.split(",").find((part) => /;\s*rel="?next"?/.test(part));
  const url = next?.match(/<([^>]+)>/)?.[1];
  return url ? (new URL(url).searchParams.get("after") ?? undefined) : undefined;
}

/** `Retry-After` in milliseconds: whole seconds or an HTTP date. */
function retryAfter(value: string | null): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/** 0.5 s, 1 s, 2 s … (at most 8 s), with up to 25 % jitter. */
const backoff = (attempt: number) => Math.min(8000, 500 * 2 ** attempt) * (1 - Math.random() * 0.25);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
