import type { components, operations, paths } from "./schema.js";
export { SvcApiError, SvcAuthenticationError, SvcConflictError, SvcConnectionError, SvcError, SvcForbiddenError, SvcInvalidRequestError, SvcNotFoundError, SvcQuotaExceededError, SvcRateLimitError, WebhookVerificationError, type ErrorCode, type ErrorType, type KnownErrorCode, } from "./errors.js";
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
type Only<T, K extends PropertyKey> = T & {
    [P in Exclude<K, keyof T>]?: never;
};
/**
 * Exactly one of `phone`, `email`, `whatsapp_user_id` or `contact_id` (`name` only beside one of
 * the first three): a recipient with two addresses does not compile.
 */
export type Recipient = Only<Schemas["RecipientByPhone"], Address> | Only<Schemas["RecipientByEmail"], Address> | Only<Schemas["RecipientByWhatsAppUserId"], Address> | Only<Schemas["RecipientByContactId"], Address | "name">;
/** `T` with its `to` an exclusive `Recipient` (each member of a union on its own). */
type WithRecipient<T> = T extends {
    to: unknown;
} ? Omit<T, "to"> & {
    to: Recipient;
} : T extends {
    to?: unknown;
} ? Omit<T, "to"> & {
    to?: Recipient;
} : T;
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
export type SuppressionListQuery = ListQuery & {
    reason?: Suppression["reason"];
};
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
export type FlowListQuery = ListQuery & {
    status?: FlowStatus;
};
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
export type ListQuery = {
    limit?: number;
    after?: string;
};
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
export type EventListQuery = ListQuery & {
    contact_id?: string;
    name?: string;
    created_after?: string;
    created_before?: string;
};
/** Filters of `GET /flows/{flow_id}/runs`. */
export type RunListQuery = ListQuery & {
    status?: Run["status"];
    contact_id?: string;
    key?: string;
};
/** `whatsapp_user_id`, `phone` or `email` (with several, the first of these is used). */
export type FindContactQuery = {
    phone: string;
    email?: string;
    whatsapp_user_id?: string;
} | {
    phone?: string;
    email: string;
    whatsapp_user_id?: string;
} | {
    phone?: string;
    email?: string;
    whatsapp_user_id: string;
};
/** Filters of `GET /whatsapp/templates`. */
export type TemplateListQuery = NonNullable<operations["whatsapp-templates"]["parameters"]["query"]>;
/** Filters of `GET /webhook-endpoints/{id}/deliveries`. */
export type DeliveryListQuery = ListQuery & {
    status?: WebhookDelivery["status"];
};
/** What a response said beside its body: `.withResponse()` of any call. */
export type ResponseInfo = {
    status: number;
    /** `Request-Id`: quote it to support. */
    requestId: string | null;
    /** `Idempotent-Replayed: true`: the answer is the stored one of an earlier request with the same key. */
    idempotentReplayed: boolean;
    /** The rate limit after this request (`RateLimit-*` headers), when the service sent them. */
    rateLimit: {
        limit: number;
        remaining: number;
        reset: number;
    } | null;
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
export type WithResponse<T> = {
    data: T;
    response: ResponseInfo;
};
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
export type RawRequestOptions = RequestOptions & {
    query?: Query;
    body?: unknown;
};
/** The official client of the svc API. */
export declare class Svc {
    #private;
    /**
     * The status and headers of the latest answer of any call of this client, null before the first.
     * @deprecated Shared by every call: wrong as soon as two run at once. Use `.withResponse()` of the call.
     */
    lastResponse: ResponseInfo | null;
    constructor(options: SvcOptions);
    /** `GET /`: checks the key; answers its workspace and mode. */
    check(options?: RequestOptions): SvcPromise<KeyCheck>;
    readonly messages: {
        send: (body: SendMessageRequest, options?: RequestOptions) => SvcPromise<Message>;
        /** Runs every check of `send` and answers the message it would create, rendered and with no id; writes and sends nothing. */
        dryRun: (body: SendMessageRequest, options?: RequestOptions) => SvcPromise<MessageDryRun>;
        /** Up to 1,000 messages; answered item by item, in order. One idempotency key covers the batch. */
        batch: (body: SendBatchRequest, options?: RequestOptions) => SvcPromise<{
            data: BatchItem[];
        }>;
        /** Cancels a message not yet handed to the provider (a scheduled one); a `409` `message_not_cancelable` otherwise. */
        cancel: (id: string, options?: RequestOptions) => SvcPromise<Message>;
        get: (id: string, options?: RequestOptions) => SvcPromise<Message>;
        /** Marks a received WhatsApp message read (with the typing indicator when asked); a `409` `not_inbound` for any other message. */
        read: (id: string, body?: {
            typing?: boolean;
        }, options?: RequestOptions) => SvcPromise<MarkedRead>;
        list: (query?: MessageListQuery, options?: RequestOptions) => SvcList<Message>;
    };
    readonly contacts: {
        upsert: (body: UpsertContactRequest, options?: RequestOptions) => SvcPromise<Contact>;
        get: (id: string, options?: RequestOptions) => SvcPromise<Contact>;
        /** The one contact with this WhatsApp user id, phone or e-mail; a `404` when none. */
        find: (query: FindContactQuery, options?: RequestOptions) => SvcPromise<Contact>;
        /** Every contact, oldest first, filtered by tag, time, phone or e-mail, page after page. */
        list: (query?: ContactListQuery, options?: RequestOptions) => SvcList<Contact>;
        /** Whether a message would reach the contact now, per channel, and every reason it would not; with `flow_id`, that flow's quiet hours and caps too. */
        reachability: (id: string, query?: {
            flow_id?: string;
        }, options?: RequestOptions) => SvcPromise<Reachability>;
        /** Erases the contact for privacy laws: its journeys stop and its data leaves every message and event. */
        erase: (id: string, options?: RequestOptions) => SvcPromise<ErasedContact>;
    };
    readonly templates: {
        /** The WhatsApp message templates of the workspace's channels, as last synced from Meta. */
        list: (query?: TemplateListQuery, options?: RequestOptions) => SvcList<WhatsAppTemplate>;
    };
    readonly webhookEndpoints: {
        /** Every endpoint of the workspace (at most 50), newest first, page after page. */
        list: (query?: ListQuery, options?: RequestOptions) => SvcList<WebhookEndpoint>;
        /** The answer's `secret` is shown this once. */
        create: (body: CreateWebhookEndpointRequest, options?: RequestOptions) => SvcPromise<CreatedWebhookEndpoint>;
        get: (id: string, options?: RequestOptions) => SvcPromise<WebhookEndpoint>;
        update: (id: string, body: UpdateWebhookEndpointRequest, options?: RequestOptions) => SvcPromise<WebhookEndpoint>;
        delete: (id: string, options?: RequestOptions) => SvcPromise<{
            id: string;
            deleted: true;
        }>;
        /** A new secret (shown this once); the previous one stays valid for 24 hours. */
        rotateSecret: (id: string, options?: RequestOptions) => SvcPromise<RotatedSecret>;
        /** Sends one signed sample delivery and answers its first attempt. */
        test: (id: string, body?: {
            event?: WebhookDelivery["event"];
        }, options?: RequestOptions) => SvcPromise<WebhookTestResult>;
        deliveries: (id: string, query?: DeliveryListQuery, options?: RequestOptions) => SvcList<WebhookDelivery>;
        redeliver: (deliveryId: string, options?: RequestOptions) => SvcPromise<WebhookDelivery>;
    };
    readonly tags: {
        create: (body: CreateTagRequest, options?: RequestOptions) => SvcPromise<Tag>;
        list: (query?: ListQuery, options?: RequestOptions) => SvcList<Tag>;
        /** Removes the tag from every contact and deletes it; a `409` `in_use` while an active or paused flow names it. */
        delete: (id: string, options?: RequestOptions) => SvcPromise<{
            id: string;
            deleted: true;
        }>;
    };
    readonly fields: {
        create: (body: CreateFieldRequest, options?: RequestOptions) => SvcPromise<CustomField>;
        list: (query?: ListQuery, options?: RequestOptions) => SvcList<CustomField>;
        /** Removes the field's value from every contact and deletes it; a `409` `in_use` while an active or paused flow names it. */
        delete: (id: string, options?: RequestOptions) => SvcPromise<{
            id: string;
            deleted: true;
        }>;
    };
    readonly flows: {
        /** The flows of one status (`active` by default), oldest first. */
        list: (query?: FlowListQuery, options?: RequestOptions) => SvcList<Flow>;
        /** Creates a flow from a document (`draft` unless it says otherwise); answers it at version 1 with its document. */
        create: (document: CreateFlowRequest, options?: RequestOptions) => SvcPromise<FlowWithDocument>;
        /** The flow with its current document: keep it in git, send it back with `replace`. */
        get: (flowId: string, options?: RequestOptions) => SvcPromise<FlowWithDocument>;
        /** Saves a whole document; a new version once the flow has left draft and the document changed. */
        replace: (flowId: string, document: ReplaceFlowRequest, options?: RequestOptions) => SvcPromise<FlowWithDocument>;
        /** `active`, `paused` or `archived` (final). */
        setStatus: (flowId: string, status: Exclude<FlowStatus, "draft">, options?: RequestOptions) => SvcPromise<FlowWithDocument>;
        /** The flow's versions, oldest first, each with its document. */
        versions: (flowId: string, query?: ListQuery, options?: RequestOptions) => SvcList<FlowVersion>;
        enroll: (flowId: string, body: EnrollRequest, options?: RequestOptions) => SvcPromise<FlowRun>;
        /** `flowId` may be `all`: every flow the contact is in. */
        unenroll: (flowId: string, body: UnenrollRequest, options?: RequestOptions) => SvcPromise<UnenrollResult>;
        /** The flow's numbers in the key's mode: runs by status, conversions, and each step of each version. */
        stats: (flowId: string, options?: RequestOptions) => SvcPromise<FlowStats>;
        /** What saving `document` would do to the flow's active runs; changes nothing. */
        preview: (flowId: string, document: PreviewFlowRequest, options?: RequestOptions) => SvcPromise<FlowPreview>;
    };
    readonly events: {
        /** Records what a contact did; flows react to it (triggers, waits, goals). `id` makes a retry harmless. */
        record: (body: RecordEventRequest, options?: RequestOptions) => SvcPromise<ContactEvent>;
        list: (query?: EventListQuery, options?: RequestOptions) => SvcList<ContactEvent>;
    };
    readonly runs: {
        /** A run with its history. */
        get: (id: string, options?: RequestOptions) => SvcPromise<RunWithHistory>;
        list: (flowId: string, query?: RunListQuery, options?: RequestOptions) => SvcList<Run>;
    };
    /** E-mail addresses that e-mail is not sent to (hard bounces, complaints, your own entries). */
    readonly suppressions: {
        list: (query?: SuppressionListQuery, options?: RequestOptions) => SvcList<Suppression>;
        add: (body: AddSuppressionRequest, options?: RequestOptions) => SvcPromise<Suppression>;
        remove: (email: string, options?: RequestOptions) => SvcPromise<Suppression>;
    };
    readonly channels: {
        /** The workspace's connected channels, without their credentials. */
        list: (options?: RequestOptions) => SvcPromise<Channel[]>;
        /** Looks up an e-mail channel's DNS records now: each one's status, DMARC's alignment and policy, and `ready`. */
        dnsCheck: (id: string, options?: RequestOptions) => SvcPromise<ChannelDnsCheck>;
    };
    readonly usage: {
        get: (options?: RequestOptions) => SvcPromise<Usage>;
    };
    /**
     * Any endpoint, wrapped or not, with the same key, retries, idempotency keys (on POST) and
     * errors as the methods above: `client.request("GET", "/flows/flow_…/versions", { query: { limit: 10 } })`.
     * `path` is relative to `/api/v1`.
     */
    request<T = unknown>(method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE", path: string, options?: RawRequestOptions): SvcPromise<T>;
}
