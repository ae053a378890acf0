import { errorOf, SvcConnectionError } from "./errors.js";
export { SvcApiError, SvcAuthenticationError, SvcConflictError, SvcConnectionError, SvcError, SvcForbiddenError, SvcInvalidRequestError, SvcNotFoundError, SvcQuotaExceededError, SvcRateLimitError, WebhookVerificationError, } from "./errors.js";
export { verifyWebhook } from "./webhooks.js";
function svcPromise(answer) {
    const data = answer.then((a) => a.data);
    // Whichever of the two the caller awaits carries a failure; the other must not be reported unhandled.
    data.catch(() => undefined);
    data.withResponse = () => answer.then(({ data, response }) => ({ data, response }));
    return data;
}
/** The official client of the svc API. */
export class Svc {
    #options;
    /**
     * The status and headers of the latest answer of any call of this client, null before the first.
     * @deprecated Shared by every call: wrong as soon as two run at once. Use `.withResponse()` of the call.
     */
    lastResponse = null;
    constructor(options) {
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
    check(options) {
        return this.#get("/", undefined, options);
    }
    messages = {
        send: (body, options) => this.#post("/messages", body, options),
        /** Runs every check of `send` and answers the message it would create, rendered and with no id; writes and sends nothing. */
        dryRun: (body, options) => this.#post("/messages", { ...body, dry_run: true }, options),
        /** Up to 1,000 messages; answered item by item, in order. One idempotency key covers the batch. */
        batch: (body, options) => this.#post("/messages/batch", body, options),
        /** Cancels a message not yet handed to the provider (a scheduled one); a `409` `message_not_cancelable` otherwise. */
        cancel: (id, options) => this.#post(`/messages/${encodeURIComponent(id)}/cancel`, undefined, options),
        get: (id, options) => this.#get(`/messages/${encodeURIComponent(id)}`, undefined, options),
        /** Marks a received WhatsApp message read (with the typing indicator when asked); a `409` `not_inbound` for any other message. */
        read: (id, body = {}, options) => this.#post(`/messages/${encodeURIComponent(id)}/read`, body, options),
        list: (query, options) => this.#list("/messages", query, options),
    };
    contacts = {
        upsert: (body, options) => this.#post("/contacts", body, options),
        get: (id, options) => this.#get(`/contacts/${encodeURIComponent(id)}`, undefined, options),
        /** The one contact with this WhatsApp user id, phone or e-mail; a `404` when none. */
        find: (query, options) => this.#get("/contacts", query, options),
        /** Every contact, oldest first, filtered by tag, time, phone or e-mail, page after page. */
        // `limit` always sent: `phone`, `email` or `whatsapp_user_id` alone would ask for the one contact instead of a list.
        list: (query, options) => this.#list("/contacts", { limit: 100, ...query }, options),
        /** Whether a message would reach the contact now, per channel, and every reason it would not; with `flow_id`, that flow's quiet hours and caps too. */
        reachability: (id, query, options) => this.#get(`/contacts/${encodeURIComponent(id)}/reachability`, query, options),
        /** Erases the contact for privacy laws: its journeys stop and its data leaves every message and event. */
        erase: (id, options) => this.#call("DELETE", `/contacts/${encodeURIComponent(id)}`, undefined, options),
    };
    templates = {
        /** The WhatsApp message templates of the workspace's channels, as last synced from Meta. */
        list: (query, options) => this.#list("/whatsapp/templates", query, options),
    };
    webhookEndpoints = {
        /** Every endpoint of the workspace (at most 50), newest first, page after page. */
        list: (query, options) => this.#list("/webhook-endpoints", query, options),
        /** The answer's `secret` is shown this once. */
        create: (body, options) => this.#post("/webhook-endpoints", body, options),
        get: (id, options) => this.#get(`/webhook-endpoints/${encodeURIComponent(id)}`, undefined, options),
        update: (id, body, options) => this.#call("PATCH", `/webhook-endpoints/${encodeURIComponent(id)}`, body, options),
        delete: (id, options) => this.#call("DELETE", `/webhook-endpoints/${encodeURIComponent(id)}`, undefined, options),
        /** A new secret (shown this once); the previous one stays valid for 24 hours. */
        rotateSecret: (id, options) => this.#post(`/webhook-endpoints/${encodeURIComponent(id)}/rotate-secret`, undefined, options),
        /** Sends one signed sample delivery and answers its first attempt. */
        test: (id, body = {}, options) => this.#post(`/webhook-endpoints/${encodeURIComponent(id)}/test`, body, options),
        deliveries: (id, query, options) => this.#list(`/webhook-endpoints/${encodeURIComponent(id)}/deliveries`, query, options),
        redeliver: (deliveryId, options) => this.#post(`/webhook-deliveries/${encodeURIComponent(deliveryId)}/redeliver`, undefined, options),
    };
    tags = {
        create: (body, options) => this.#post("/tags", body, options),
        list: (query, options) => this.#list("/tags", query, options),
        /** Removes the tag from every contact and deletes it; a `409` `in_use` while an active or paused flow names it. */
        delete: (id, options) => this.#call("DELETE", `/tags/${encodeURIComponent(id)}`, undefined, options),
    };
    fields = {
        create: (body, options) => this.#post("/custom-fields", body, options),
        list: (query, options) => this.#list("/custom-fields", query, options),
        /** Removes the field's value from every contact and deletes it; a `409` `in_use` while an active or paused flow names it. */
        delete: (id, options) => this.#call("DELETE", `/custom-fields/${encodeURIComponent(id)}`, undefined, options),
    };
    flows = {
        /** The flows of one status (`active` by default), oldest first. */
        list: (query, options) => this.#list("/flows", query, options),
        /** Creates a flow from a document (`draft` unless it says otherwise); answers it at version 1 with its document. */
        create: (document, options) => this.#post("/flows", document, options),
        /** The flow with its current document: keep it in git, send it back with `replace`. */
        get: (flowId, options) => this.#get(`/flows/${encodeURIComponent(flowId)}`, undefined, options),
        /** Saves a whole document; a new version once the flow has left draft and the document changed. */
        replace: (flowId, document, options) => this.#call("PUT", `/flows/${encodeURIComponent(flowId)}`, document, options),
        /** `active`, `paused` or `archived` (final). */
        setStatus: (flowId, status, options) => this.#post(`/flows/${encodeURIComponent(flowId)}/status`, { status }, options),
        /** The flow's versions, oldest first, each with its document. */
        versions: (flowId, query, options) => this.#list(`/flows/${encodeURIComponent(flowId)}/versions`, query, options),
        enroll: (flowId, body, options) => this.#post(`/flows/${encodeURIComponent(flowId)}/enroll`, body, options),
        /** `flowId` may be `all`: every flow the contact is in. */
        unenroll: (flowId, body, options) => this.#post(`/flows/${encodeURIComponent(flowId)}/unenroll`, body, options),
        /** The flow's numbers in the key's mode: runs by status, conversions, and each step of each version. */
        stats: (flowId, options) => this.#get(`/flows/${encodeURIComponent(flowId)}/stats`, undefined, options),
        /** What saving `document` would do to the flow's active runs; changes nothing. */
        preview: (flowId, document, options) => this.#post(`/flows/${encodeURIComponent(flowId)}/preview`, document, options),
    };
    events = {
        /** Records what a contact did; flows react to it (triggers, waits, goals). `id` makes a retry harmless. */
        record: (body, options) => this.#post("/events", body, options),
        list: (query, options) => this.#list("/events", query, options),
    };
    runs = {
        /** A run with its history. */
        get: (id, options) => this.#get(`/runs/${encodeURIComponent(id)}`, undefined, options),
        list: (flowId, query, options) => this.#list(`/flows/${encodeURIComponent(flowId)}/runs`, query, options),
    };
    /** E-mail addresses that e-mail is not sent to (hard bounces, complaints, your own entries). */
    suppressions = {
        list: (query, options) => this.#list("/suppressions", query, options),
        add: (body, options) => this.#post("/suppressions", body, options),
        remove: (email, options) => this.#call("DELETE", `/suppressions/${encodeURIComponent(email)}`, undefined, options),
    };
    channels = {
        /** The workspace's connected channels, without their credentials. */
        list: (options) => this.#get("/channels", undefined, options),
        /** Looks up an e-mail channel's DNS records now: each one's status, DMARC's alignment and policy, and `ready`. */
        dnsCheck: (id, options) => this.#post(`/channels/${encodeURIComponent(id)}/dns-check`, undefined, options),
    };
    usage = {
        get: (options) => this.#get("/usage", undefined, options),
    };
    /**
     * Any endpoint, wrapped or not, with the same key, retries, idempotency keys (on POST) and
     * errors as the methods above: `client.request("GET", "/flows/flow_…/versions", { query: { limit: 10 } })`.
     * `path` is relative to `/api/v1`.
     */
    request(method, path, options = {}) {
        const { query, body, ...rest } = options;
        return svcPromise(this.#request(method, path, query, body, rest));
    }
    #get(path, query, options) {
        return svcPromise(this.#request("GET", path, query, undefined, options));
    }
    #post(path, body, options) {
        return svcPromise(this.#request("POST", path, undefined, body, options));
    }
    #call(method, path, body, options) {
        return svcPromise(this.#request(method, path, undefined, body, options));
    }
    /** Every item of a list, page after page, following the `after` of each `Link: rel="next"`; `.withResponse()` gives the pages. */
    #list(path, query = {}, options) {
        const request = (page) => this.#request("GET", path, page, undefined, options);
        async function* pages() {
            let page = { ...query };
            for (;;) {
                const { data, headers, response } = await request(page);
                yield { data, response };
                const after = nextAfter(headers.get("link"));
                if (!after)
                    return;
                page = { ...page, after };
            }
        }
        async function* items() {
            for await (const { data } of pages())
                yield* data;
        }
        return Object.assign(items(), { withResponse: pages });
    }
    async #request(method, path, query, body, options = {}) {
        const { baseUrl, apiKey, maxRetries, maxInProgressRetries, maxRetryDelaySeconds, timeoutMs } = this.#options;
        const url = new URL(`${baseUrl}/api/v1${path}`);
        for (const [k, v] of Object.entries(query ?? {}))
            if (v !== undefined)
                url.searchParams.set(k, String(v));
        const headers = { Authorization: `Bearer ${apiKey}`, Accept: "application/json" };
        if (body !== undefined)
            headers["Content-Type"] = "application/json";
        if (method === "POST")
            headers["Idempotency-Key"] = options.idempotencyKey ?? crypto.randomUUID();
        let inProgress = 0;
        for (let attempt = 0;; attempt++) {
            const signal = options.signal ? AbortSignal.any([options.signal, AbortSignal.timeout(timeoutMs)]) : AbortSignal.timeout(timeoutMs);
            let res;
            try {
                res = await this.#options.fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal });
            }
            catch (cause) {
                if (options.signal?.aborted)
                    throw cause;
                if (attempt >= maxRetries)
                    throw new SvcConnectionError(`${method} ${path} failed: ${String(cause)}`, { cause });
                await sleep(backoff(attempt));
                continue;
            }
            const response = responseInfo(res);
            this.lastResponse = response;
            if (res.ok)
                return { data: (await res.json()), headers: res.headers, response };
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
async function apiError(res) {
    const text = await res.text();
    let error;
    try {
        error = JSON.parse(text).error;
    }
    catch {
        error = undefined;
    }
    const fallback = {
        type: res.status >= 500 ? "api_error" : "invalid_request",
        code: res.status >= 500 ? "internal_error" : "parameter_invalid",
        message: text.slice(0, 200) || res.statusText,
        param: null,
        doc_url: "",
    };
    return errorOf(res.status, error ?? fallback, res.headers.get("request-id"));
}
function responseInfo(res) {
    const limit = res.headers.get("ratelimit-limit");
    return {
        status: res.status,
        requestId: res.headers.get("request-id"),
        idempotentReplayed: res.headers.get("idempotent-replayed") === "true",
        rateLimit: limit === null
            ? null
            : {
                limit: Number(limit),
                remaining: Number(res.headers.get("ratelimit-remaining")),
                reset: Number(res.headers.get("ratelimit-reset")),
            },
    };
}
/** `<…?after=ct_9>; rel="next"` → `ct_9`. */
function nextAfter(link) {
    const next = link?.split(",").find((part) => /;\s*rel="?next"?/.test(part));
    const url = next?.match(/<([^>]+)>/)?.[1];
    return url ? (new URL(url).searchParams.get("after") ?? undefined) : undefined;
}
/** `Retry-After` in milliseconds: whole seconds or an HTTP date. */
function retryAfter(value) {
    if (!value)
        return undefined;
    const seconds = Number(value);
    if (Number.isFinite(seconds))
        return Math.max(0, seconds * 1000);
    const at = Date.parse(value);
    return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}
/** 0.5 s, 1 s, 2 s … (at most 8 s), with up to 25 % jitter. */
const backoff = (attempt) => Math.min(8000, 500 * 2 ** attempt) * (1 - Math.random() * 0.25);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
