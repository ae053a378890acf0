import { codeStatus, ERROR_CATALOG, type ErrorCode, type ErrorCodeOf, type ErrorType } from "./error-catalog.ts";
import { REQUIRED } from "./validation-messages.ts";

// One error type for the whole service (STYLE.md "Errors"). `code` is one of the catalog's
// codes (D29, error-catalog.ts): the catalog gives the error its spec type and its HTTP status,
// so a code that is not in the catalog does not compile.

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly type: ErrorType;
  readonly param: string | null;
  readonly status: number;

  constructor(code: ErrorCode, message: string, opts: { param?: string | null } = {}) {
    super(message);
    this.name = "AppError";
    this.code = code;
    this.type = ERROR_CATALOG[code].type;
    this.param = opts.param ?? null;
    this.status = codeStatus(ERROR_CATALOG[code]);
  }
}

export const notFound = (what: string, param?: string) => new AppError("resource_missing", `No such ${what}.`, { param });

export const invalid = (code: ErrorCodeOf<"invalid_request">, message: string, param?: string | null) =>
  new AppError(code, message, { param });

export const conflict = (code: ErrorCodeOf<"conflict">, message: string, param?: string | null) => new AppError(code, message, { param });

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
    return new AppError("unknown_parameter", `${param} is not a known parameter of this request.`, { param });
  }
  const issue = issues[0];
  const param = issue.path.map(String).join(".") || null;
  // The final issue has no `input`: the one error map words an absent parameter REQUIRED.
  const missing = issue.code === "invalid_type" && issue.message === REQUIRED;
  return new AppError(missing ? "parameter_missing" : "parameter_invalid", param ? `${param}: ${issue.message}` : issue.message, { param });
}
