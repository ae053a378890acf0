import { SvcConnectionError, SvcError, type ApiErrorBody } from "./errors.js";
import type { components, paths } from "./schema.js";

export { SvcConnectionError, SvcError, WebhookVerificationError, type ErrorCode, type ErrorType } from "./errors.js";
export { verifyWebhook, type EventName, type VerifyOptions, type WebhookEvent, type WebhookHeaders } from "./webhooks.js";
export type { components, paths } from "./schema.js";

type Schemas = components["schemas"];
export type Message = Schemas["Message"];
export type Contact = Schemas["Contact"];
export type Tag = Schemas["Tag"];
export type CustomField = Schemas["CustomField"];
export type Flow = Schemas["Flow"];
export type FlowRun = Schemas["FlowRun"];
export type Usage = Schemas["Usage"];
export type Recipient = Schemas["Recipient"];
export type SendMessageRequest = Schemas["SendMessageRequest"];
export type SendBatchRequest = Schemas["BatchMessageRequest"];
/** One item of a batch's answer, in the place of its message: the message (it has an `id`), or `{ error }` (`param` starts with `messages.<index>`). */
export type BatchItem = paths["/messages/batch"]["post"]["responses"]["200"]["content"]["application/json"]["data"][number];
export type UpsertContactRequest = Schemas["UpsertContactRequest"];
export type CreateTagRequest = Schemas["CreateTagRequest"];
export type CreateFieldRequest = Schemas["CreateFieldRequest"];
export type EnrollRequest = Schemas["EnrollFlowRequest"];
export type UnenrollRequest = Schemas["UnenrollFlowRequest"];
export type UnenrollResult = Schemas["UnenrollResult"];
export type KeyCheck = Schemas["KeyCheck"];
export type ContactEvent = Schemas["ContactEvent"];
export type RecordEventRequest = Schemas["RecordEventRequest"];
export type Run = Schemas["Run"];
export type RunWithHistory = Schemas["RunWithHistory"];

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
export type FindContactQuery = NonNullable<paths["/contacts"]["get"]["parameters"]["query"]>;

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
  /** A fetch implementation (default: the global `fetch`). */
  fetch?: typeof fetch;
};

export type RequestOptions = {
  /** For POSTs: sent as `Idempotency-Key`; one is generated when absent, and kept across retries. */
  idempotencyKey?: string;
  signal?: AbortSignal;
};

type Query = Record<string, string | number | undefined>;

/** The official client of the svc API. */
export class Svc {
  readonly #options: Required<Omit<SvcOptions, "fetch">> & { fetch: typeof fetch };

  constructor(options: SvcOptions) {
    this.#options = {
      maxRetries: 2,
      maxRetryDelaySeconds: 30,
      timeoutMs: 30_000,
      ...options,
      baseUrl: options.baseUrl.replace(/\/+$/, ""),
      fetch: options.fetch ?? ((input, init) => fetch(input, init)),
    };
  }

  /** `GET /`: checks the key; answers its workspace and mode. */
  check(options?: RequestOptions): Promise<KeyCheck> {
    return this.#get("/", undefined, options);
  }

  readonly messages = {
    send: (body: SendMessageRequest, options?: RequestOptions): Promise<Message> => this.#post("/messages", body, options),
    /** Up to 1,000 messages; answered item by item, in order. One idempotency key covers the batch. */
    batch: (body: SendBatchRequest, options?: RequestOptions): Promise<{ data: BatchItem[] }> =>
      this.#post("/messages/batch", body, options),
    /** Cancels a message not yet handed to the provider (a scheduled one); a `409` `message_not_cancelable` otherwise. */
    cancel: (id: string, options?: RequestOptions): Promise<Message> =>
      this.#post(`/messages/${encodeURIComponent(id)}/cancel`, undefined, options),
    get: (id: string, options?: RequestOptions): Promise<Message> => this.#get(`/messages/${encodeURIComponent(id)}`, undefined, options),
    list: (query?: MessageListQuery, options?: RequestOptions): AsyncGenerator<Message> => this.#list("/messages", query, options),
  };

  readonly contacts = {
    upsert: (body: UpsertContactRequest, options?: RequestOptions): Promise<Contact> => this.#post("/contacts", body, options),
    get: (id: string, options?: RequestOptions): Promise<Contact> => this.#get(`/contacts/${encodeURIComponent(id)}`, undefined, options),
    find: (query: FindContactQuery, options?: RequestOptions): Promise<Contact> => this.#get("/contacts", query, options),
  };

  readonly tags = {
    create: (body: CreateTagRequest, options?: RequestOptions): Promise<Tag> => this.#post("/tags", body, options),
    list: (query?: ListQuery, options?: RequestOptions): AsyncGenerator<Tag> => this.#list("/tags", query, options),
  };

  readonly fields = {
    create: (body: CreateFieldRequest, options?: RequestOptions): Promise<CustomField> => this.#post("/custom-fields", body, options),
    list: (query?: ListQuery, options?: RequestOptions): AsyncGenerator<CustomField> => this.#list("/custom-fields", query, options),
  };

  readonly flows = {
    list: (query?: ListQuery, options?: RequestOptions): AsyncGenerator<Flow> => this.#list("/flows", query, options),
    enroll: (flowId: string, body: EnrollRequest, options?: RequestOptions): Promise<FlowRun> =>
      this.#post(`/flows/${encodeURIComponent(flowId)}/enroll`, body, options),
    /** `flowId` may be `all`: every flow the contact is in. */
    unenroll: (flowId: string, body: UnenrollRequest, options?: RequestOptions): Promise<UnenrollResult> =>
      this.#post(`/flows/${encodeURIComponent(flowId)}/unenroll`, body, options),
  };

  readonly events = {
    /** Records what a contact did; flows react to it (triggers, waits, goals). `id` makes a retry harmless. */
    record: (body: RecordEventRequest, options?: RequestOptions): Promise<ContactEvent> => this.#post("/events", body, options),
    list: (query?: EventListQuery, options?: RequestOptions): AsyncGenerator<ContactEvent> => this.#list("/events", query, options),
  };

  readonly runs = {
    /** A run with its history. */
    get: (id: string, options?: RequestOptions): Promise<RunWithHistory> =>
      this.#get(`/runs/${encodeURIComponent(id)}`, undefined, options),
    list: (flowId: string, query?: RunListQuery, options?: RequestOptions): AsyncGenerator<Run> =>
      this.#list(`/flows/${encodeURIComponent(flowId)}/runs`, query, options),
  };

  readonly usage = {
    get: (options?: RequestOptions): Promise<Usage> => this.#get("/usage", undefined, options),
  };

  #get<T>(path: string, query: Query | undefined, options?: RequestOptions): Promise<T> {
    return this.#request<T>("GET", path, query, undefined, options).then((r) => r.data);
  }

  #post<T>(path: string, body: unknown, options?: RequestOptions): Promise<T> {
    return this.#request<T>("POST", path, undefined, body, options).then((r) => r.data);
  }

  /** Every item of a list, page after page, following the `after` of each `Link: rel="next"`. */
  async *#list<T>(path: string, query: Query = {}, options?: RequestOptions): AsyncGenerator<T> {
    let page: Query = { ...query };
    for (;;) {
      const { data, headers } = await this.#request<T[]>("GET", path, page, undefined, options);
      yield* data;
      const after = nextAfter(headers.get("link"));
      if (!after) return;
      page = { ...page, after };
    }
  }

  async #request<T>(method: string, path: string, query: Query | undefined, body: unknown, options: RequestOptions = {}) {
    const { baseUrl, apiKey, maxRetries, maxRetryDelaySeconds, timeoutMs } = this.#options;
    const url = new URL(`${baseUrl}/api/v1${path}`);
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = { Authorization: `Bearer ${apiKey}`, Accept: "application/json" };
    if (method === "POST") {
      headers["Content-Type"] = "application/json";
      headers["Idempotency-Key"] = options.idempotencyKey ?? crypto.randomUUID();
    }
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
      if (res.ok) return { data: (await res.json()) as T, headers: res.headers };
      const retryable = res.status === 429 || res.status >= 500;
      const wait = retryAfter(res.headers.get("retry-after")) ?? backoff(attempt);
      if (retryable && attempt < maxRetries && wait <= maxRetryDelaySeconds * 1000) {
        await res.body?.cancel();
        await sleep(wait);
        continue;
      }
      throw await apiError(res);
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
  return new SvcError(res.status, error ?? fallback, res.headers.get("request-id"));
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
