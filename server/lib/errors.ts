import { REQUIRED } from "./validation-messages.ts";

// One error type for the whole service (STYLE.md "Errors"). `type` is one of the spec's
// error types; `code` is the stable, more specific snake_case code of D29.

export const ERROR_STATUS = {
  authentication: 401,
  forbidden: 403,
  invalid_request: 400,
  not_found: 404,
  conflict: 409,
  rate_limit: 429,
  quota_exceeded: 403,
  api_error: 500,
} as const;

export type ErrorType = keyof typeof ERROR_STATUS;

export class AppError extends Error {
  readonly type: ErrorType;
  readonly code: string;
  readonly param: string | null;
  readonly status: number;

  constructor(type: ErrorType, code: string, message: string, opts: { param?: string | null; status?: number } = {}) {
    super(message);
    this.name = "AppError";
    this.type = type;
    this.code = code;
    this.param = opts.param ?? null;
    this.status = opts.status ?? ERROR_STATUS[type];
  }
}

export const notFound = (what: string, param?: string) => new AppError("not_found", "resource_missing", `No such ${what}.`, { param });

export const invalid = (code: string, message: string, param?: string | null) => new AppError("invalid_request", code, message, { param });

export const conflict = (code: string, message: string, param?: string | null) => new AppError("conflict", code, message, { param });

/** Prisma's unique violation (P2002) and missing row (P2025), mapped once. */
export function prismaErrorCode(err: unknown): "unique" | "missing" | null {
  const code = (err as { code?: unknown } | null)?.code;
  if (code === "P2002") return "unique";
  if (code === "P2025") return "missing";
  return null;
}

/** Whether a raw driver error is PostgreSQL's unique_violation (SQLSTATE 23505). */
export function isUniqueViolation(err: unknown): boolean {
  if (prismaErrorCode(err) === "unique") return true;
  const e = err as { code?: unknown; cause?: { code?: unknown; originalCode?: unknown } } | null;
  return e?.code === "23505" || e?.cause?.code === "23505" || e?.cause?.originalCode === "23505";
}

type ZodIssueLike = { path: PropertyKey[]; message: string; code: string; input?: unknown; keys?: string[] };

/**
 * A zod validation error as the spec's `invalid_request`, `param` = the dotted path of the
 * fault: `unknown_parameter` for a parameter the request does not have (D58, reported before
 * any other fault, since it often explains them), else the first fault: `parameter_missing`
 * when absent, `parameter_invalid` otherwise. Messages come from the schema or from the one
 * error map (validation-messages.ts). Null when `err` is not a zod error. Used by both doors
 * (REST facade and dashboard tRPC).
 */
export function fromZodError(err: unknown): AppError | null {
  const issues = (err as { name?: string; issues?: ZodIssueLike[] } | null)?.issues;
  if ((err as Error | null)?.name !== "ZodError" || !issues?.[0]) return null;
  const unknown = issues.find((i) => i.code === "unrecognized_keys" && i.keys?.length);
  if (unknown) {
    const param = [...unknown.path.map(String), unknown.keys![0]!].join(".");
    return new AppError("invalid_request", "unknown_parameter", `${param} is not a known parameter of this request.`, { param });
  }
  const issue = issues[0];
  const param = issue.path.map(String).join(".") || null;
  // The final issue has no `input`: the one error map words an absent parameter REQUIRED.
  const missing = issue.code === "invalid_type" && issue.message === REQUIRED;
  return new AppError(
    "invalid_request",
    missing ? "parameter_missing" : "parameter_invalid",
    param ? `${param}: ${issue.message}` : issue.message,
    { param },
  );
}
