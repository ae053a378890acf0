import type { components } from "./schema.js";
export type ApiErrorBody = components["schemas"]["ApiError"]["error"];
export type ErrorType = ApiErrorBody["type"];
/** The codes the service answered when this client was built. */
export type KnownErrorCode = ApiErrorBody["code"];
/**
 * A known code, or any other string: new codes may appear within `/v1`, so a `switch` over
 * `code` needs a `default` (branch on `type` for an unknown one). Known codes still autocomplete.
 */
export type ErrorCode = KnownErrorCode | (string & {});
/**
 * An error answered by the API, with the fields of its body: branch on the subclass (one per
 * `type`) or on `code` (`message` is for people).
 */
export declare class SvcError extends Error {
    name: string;
    readonly status: number;
    readonly type: ErrorType;
    readonly code: ErrorCode;
    readonly param: string | null;
    readonly docUrl: string;
    /** The `Request-Id` response header: quote it to support. */
    readonly requestId: string | null;
    constructor(status: number, body: ApiErrorBody | (Omit<ApiErrorBody, "code"> & {
        code: string;
    }), requestId: string | null);
}
/** `401`: no key, or an unknown, malformed or revoked one. */
export declare class SvcAuthenticationError extends SvcError {
    name: string;
}
/** `403`: the key lacks a scope, the plan lacks the API, or a live key was sent from a browser. */
export declare class SvcForbiddenError extends SvcError {
    name: string;
}
/** `400` (and `405`, `413`, `422`): the request is wrong; `param` names what. */
export declare class SvcInvalidRequestError extends SvcError {
    name: string;
}
/** `404`: no such resource in this workspace (and mode). */
export declare class SvcNotFoundError extends SvcError {
    name: string;
}
/** `409`: the request conflicts with the resource's state. */
export declare class SvcConflictError extends SvcError {
    name: string;
}
/** `429`: too many requests (after the client's own retries). */
export declare class SvcRateLimitError extends SvcError {
    name: string;
}
/** `403`: a daily or monthly sending limit is reached. */
export declare class SvcQuotaExceededError extends SvcError {
    name: string;
}
/** `5xx`: the service failed (after the client's own retries). */
export declare class SvcApiError extends SvcError {
    name: string;
}
/** The subclass of an error body's `type` (`SvcError` itself for a type this client does not know). */
export declare function errorOf(status: number, body: ApiErrorBody, requestId: string | null): SvcError;
/** The request never got an answer from the API (network failure or timeout), after the retries. */
export declare class SvcConnectionError extends Error {
    readonly name = "SvcConnectionError";
    constructor(message: string, options?: {
        cause?: unknown;
    });
}
/** A webhook delivery whose signature or timestamp does not verify. */
export declare class WebhookVerificationError extends Error {
    readonly name = "WebhookVerificationError";
}
