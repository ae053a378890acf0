import type { components } from "./schema.js";

export type ApiErrorBody = components["schemas"]["ApiError"]["error"];
export type ErrorType = ApiErrorBody["type"];
export type ErrorCode = ApiErrorBody["code"];

/**
 * An error answered by the API, with the fields of its body: branch on `type` and `code`
 * (`message` is for people). New codes may appear within `/v1`: handle an unknown one by `type`.
 */
export class SvcError extends Error {
  override readonly name = "SvcError";
  readonly status: number;
  readonly type: ErrorType;
  readonly code: ErrorCode;
  readonly param: string | null;
  readonly docUrl: string;
  /** The `Request-Id` response header: quote it to support. */
  readonly requestId: string | null;

  constructor(status: number, body: ApiErrorBody, requestId: string | null) {
    super(body.message);
    this.status = status;
    this.type = body.type;
    this.code = body.code;
    this.param = body.param ?? null;
    this.docUrl = body.doc_url;
    this.requestId = requestId;
  }
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
