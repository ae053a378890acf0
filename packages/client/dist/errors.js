/**
 * An error answered by the API, with the fields of its body: branch on the subclass (one per
 * `type`) or on `code` (`message` is for people).
 */
export class SvcError extends Error {
    name = "SvcError";
    status;
    type;
    code;
    param;
    docUrl;
    /** The `Request-Id` response header: quote it to support. */
    requestId;
    constructor(status, body, requestId) {
        super(body.message);
        this.status = status;
        this.type = body.type;
        this.code = body.code;
        this.param = body.param ?? null;
        this.docUrl = body.doc_url;
        this.requestId = requestId;
    }
}
/** `401`: no key, or an unknown, malformed or revoked one. */
export class SvcAuthenticationError extends SvcError {
    name = "SvcAuthenticationError";
}
/** `403`: the key lacks a scope, the plan lacks the API, or a live key was sent from a browser. */
export class SvcForbiddenError extends SvcError {
    name = "SvcForbiddenError";
}
/** `400` (and `405`, `413`, `422`): the request is wrong; `param` names what. */
export class SvcInvalidRequestError extends SvcError {
    name = "SvcInvalidRequestError";
}
/** `404`: no such resource in this workspace (and mode). */
export class SvcNotFoundError extends SvcError {
    name = "SvcNotFoundError";
}
/** `409`: the request conflicts with the resource's state. */
export class SvcConflictError extends SvcError {
    name = "SvcConflictError";
}
/** `429`: too many requests (after the client's own retries). */
export class SvcRateLimitError extends SvcError {
    name = "SvcRateLimitError";
}
/** `403`: a daily or monthly sending limit is reached. */
export class SvcQuotaExceededError extends SvcError {
    name = "SvcQuotaExceededError";
}
/** `5xx`: the service failed (after the client's own retries). */
export class SvcApiError extends SvcError {
    name = "SvcApiError";
}
const BY_TYPE = {
    authentication: SvcAuthenticationError,
    forbidden: SvcForbiddenError,
    invalid_request: SvcInvalidRequestError,
    not_found: SvcNotFoundError,
    conflict: SvcConflictError,
    rate_limit: SvcRateLimitError,
    quota_exceeded: SvcQuotaExceededError,
    api_error: SvcApiError,
};
/** The subclass of an error body's `type` (`SvcError` itself for a type this client does not know). */
export function errorOf(status, body, requestId) {
    const Class = BY_TYPE[body.type] ?? SvcError;
    return new Class(status, body, requestId);
}
/** The request never got an answer from the API (network failure or timeout), after the retries. */
export class SvcConnectionError extends Error {
    name = "SvcConnectionError";
    constructor(message, options) {
        super(message, options);
    }
}
/** A webhook delivery whose signature or timestamp does not verify. */
export class WebhookVerificationError extends Error {
    name = "WebhookVerificationError";
}
