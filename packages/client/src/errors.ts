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
export class SvcError extends Error {
  override name = "SvcError";
  readonly status: number;
  readonly type: ErrorType;
  readonly code: ErrorCode;
  readonly param: string | null;
  readonly docUrl: string;
  /** The `Request-Id` response header: quote it to support. */
  readonly requestId: string | null;

  constructor(status: number, body: ApiErrorBody | (Omit<ApiErrorBody, "code"> & { code: string }), requestId: string | null) {
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
  override name = "SvcAuthenticationError";
}
/** `403`: the key lacks a scope, the plan lacks the API, or a live key was sent from a browser. */
export class SvcForbiddenError extends SvcError {
  override name = "SvcForbiddenError";
}
/** `400` (and `405`, `413`, `422`): the request is wrong; `param` names what. */
export class SvcInvalidRequestError extends SvcError {
  override name = "SvcInvalidRequestError";
}
/** `404`: no such resource in this workspace (and mode). */
export class SvcNotFoundError extends SvcError {
  override name = "SvcNotFoundError";
}
/** `409`: the request conflicts with the resource's state. */
export class SvcConflictError extends SvcError {
  override name = "SvcConflictError";
}
/** `429`: too many requests (after the client's own retries). */
export class SvcRateLimitError extends SvcError {
  override name = "SvcRateLimitError";
}
/** `403`: a daily or monthly sending limit is reached. */
export class SvcQuotaExceededError extends SvcError {
  override name = "SvcQuotaExceededError";
}
/** `5xx`: the service failed (after the client's own retries). */
export class SvcApiError extends SvcError {
  override name = "SvcApiError";
}

const BY_TYPE: Record<ErrorType, typeof SvcError> = {
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
export function errorOf(status: number, body: ApiErrorBody, requestId: string | null): SvcError {
  const Class = BY_TYPE[body.type] ?? SvcError;
  return new Class(status, body, requestId);
}

/** The request never got an answer from the API (network failure or timeout), after the retries. */
export class SvcConnectionError extends Error {
  override readonly name = "SvcConnectionError";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** A webhook delivery whose signature or timestamp does not verify. */
export class WebhookVerificationError extends Error {
  override readonly name = "WebhookVerificationError";
}
