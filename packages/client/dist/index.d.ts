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
type Address = "phone" | "email" | "contact_id";
type Only<T, K extends PropertyKey> = T & {
    [P in Exclude<K, keyof T>]?: never;
};
/**
 * Exactly one of `phone`, `email` or `contact_id` (`name` only beside `phone` or `email`): a
 * recipient with two addresses does not compile.
 */
export type Recipient = Only<Schemas["RecipientByPhone"], Address> | Only<Schemas["RecipientByEmail"], Address> | Only<Schemas["RecipientByContactId"], Address | "name">;
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
export type FindContactQuery = NonNullable<paths["/contacts"]["get"]["parameters"]["query"]>;
/** Filters of `GET /whatsapp/templates`. */
export type TemplateListQuery = NonNullable<operations["whatsapp-templates"]["parameters"]["query"]>;
/** Filters of `GET /webhook-endpoints/{id}/deliveries`. */
export type DeliveryListQuery = ListQuery & {
    status?: WebhookDelivery["status"];
};
/** What the latest response said beside its body (`svc.lastResponse`). */
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
/** The official client of the svc API. */
export declare class Svc {
    #private;
    /** The status and headers of the latest answer (a success or an error), null before the first. */
    lastResponse: ResponseInfo | null;
    constructor(options: SvcOptions);
    /** `GET /`: checks the key; answers its workspace and mode. */
    check(options?: RequestOptions): Promise<KeyCheck>;
    readonly messages: {
        send: (body: SendMessageRequest, options?: RequestOptions) => Promise<Message>;
        /** Runs every check of `send` and answers the message it would create, rendered and with no id; writes and sends nothing. */
        dryRun: (body: SendMessageRequest, options?: RequestOptions) => Promise<MessageDryRun>;
        /** Up to 1,000 messages; answered item by item, in order. One idempotency key covers the batch. */
        batch: (body: SendBatchRequest, options?: RequestOptions) => Promise<{
            data: BatchItem[];
        }>;
        /** Cancels a message not yet handed to the provider (a scheduled one); a `409` `message_not_cancelable` otherwise. */
        cancel: (id: string, options?: RequestOptions) => Promise<Message>;
        get: (id: string, options?: RequestOptions) => Promise<Message>;
        list: (query?: MessageListQuery, options?: RequestOptions) => AsyncGenerator<Message>;
    };
    readonly contacts: {
        upsert: (body: UpsertContactRequest, options?: RequestOptions) => Promise<Contact>;
        get: (id: string, options?: RequestOptions) => Promise<Contact>;
        find: (query: FindContactQuery, options?: RequestOptions) => Promise<Contact>;
        /** Whether a message would reach the contact now, per channel, and every reason it would not; with `flow_id`, that flow's quiet hours and caps too. */
        reachability: (id: string, query?: {
            flow_id?: string;
        }, options?: RequestOptions) => Promise<Reachability>;
        /** Erases the contact for privacy laws: its journeys stop and its data leaves every message and event. */
        erase: (id: string, options?: RequestOptions) => Promise<ErasedContact>;
    };
    readonly templates: {
        /** The WhatsApp message templates of the workspace's channels, as last synced from Meta. */
        list: (query?: TemplateListQuery, options?: RequestOptions) => AsyncGenerator<WhatsAppTemplate>;
    };
    readonly webhookEndpoints: {
        /** Every endpoint of the workspace (at most 50), newest first, page after page. */
        list: (query?: ListQuery, options?: RequestOptions) => AsyncGenerator<WebhookEndpoint>;
        /** The answer's `secret` is shown this once. */
        create: (body: CreateWebhookEndpointRequest, options?: RequestOptions) => Promise<CreatedWebhookEndpoint>;
        get: (id: string, options?: RequestOptions) => Promise<WebhookEndpoint>;
        update: (id: string, body: UpdateWebhookEndpointRequest, options?: RequestOptions) => Promise<WebhookEndpoint>;
        delete: (id: string, options?: RequestOptions) => Promise<{
            id: string;
            deleted: true;
        }>;
        /** A new secret (shown this once); the previous one stays valid for 24 hours. */
        rotateSecret: (id: string, options?: RequestOptions) => Promise<RotatedSecret>;
        /** Sends one signed sample delivery and answers its first attempt. */
        test: (id: string, body?: {
            event?: WebhookDelivery["event"];
        }, options?: RequestOptions) => Promise<WebhookTestResult>;
        deliveries: (id: string, query?: DeliveryListQuery, options?: RequestOptions) => AsyncGenerator<WebhookDelivery>;
        redeliver: (deliveryId: string, options?: RequestOptions) => Promise<WebhookDelivery>;
    };
    readonly tags: {
        create: (body: CreateTagRequest, options?: RequestOptions) => Promise<Tag>;
        list: (query?: ListQuery, options?: RequestOptions) => AsyncGenerator<Tag>;
    };
    readonly fields: {
        create: (body: CreateFieldRequest, options?: RequestOptions) => Promise<CustomField>;
        list: (query?: ListQuery, options?: RequestOptions) => AsyncGenerator<CustomField>;
    };
    readonly flows: {
        list: (query?: ListQuery, options?: RequestOptions) => AsyncGenerator<Flow>;
        enroll: (flowId: string, body: EnrollRequest, options?: RequestOptions) => Promise<FlowRun>;
        /** `flowId` may be `all`: every flow the contact is in. */
        unenroll: (flowId: string, body: UnenrollRequest, options?: RequestOptions) => Promise<UnenrollResult>;
        /** The flow's numbers in the key's mode: runs by status, conversions, and each step of each version. */
        stats: (flowId: string, options?: RequestOptions) => Promise<FlowStats>;
        /** What saving `document` would do to the flow's active runs; changes nothing. */
        preview: (flowId: string, document: PreviewFlowRequest, options?: RequestOptions) => Promise<FlowPreview>;
    };
    readonly events: {
        /** Records what a contact did; flows react to it (triggers, waits, goals). `id` makes a retry harmless. */
        record: (body: RecordEventRequest, options?: RequestOptions) => Promise<ContactEvent>;
        list: (query?: EventListQuery, options?: RequestOptions) => AsyncGenerator<ContactEvent>;
    };
    readonly runs: {
        /** A run with its history. */
        get: (id: string, options?: RequestOptions) => Promise<RunWithHistory>;
        list: (flowId: string, query?: RunListQuery, options?: RequestOptions) => AsyncGenerator<Run>;
    };
    /** E-mail addresses that e-mail is not sent to (hard bounces, complaints, your own entries). */
    readonly suppressions: {
        list: (query?: SuppressionListQuery, options?: RequestOptions) => AsyncGenerator<Suppression>;
        add: (body: AddSuppressionRequest, options?: RequestOptions) => Promise<Suppression>;
        remove: (email: string, options?: RequestOptions) => Promise<Suppression>;
    };
    readonly usage: {
        get: (options?: RequestOptions) => Promise<Usage>;
    };
}
