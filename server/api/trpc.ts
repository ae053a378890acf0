import { initTRPC, TRPCError } from "@trpc/server";
import type { OpenApiMeta } from "trpc-to-openapi";
import { isConnectionError, type Database } from "../db/client.ts";
import type { IdempotentEffect } from "../idempotency/idempotency.ts";
import { grants, type Scope } from "../keys/scopes.ts";
import type { Caller } from "../lib/caller.ts";
import type { ErrorCode } from "../lib/error-catalog.ts";
import { AppError, fromZodError } from "../lib/errors.ts";
import { assertStorable } from "../lib/storable-input.ts";

// Procedures, context and the middleware every router shares (STYLE.md "Three layers").

/**
 * A signed-in dashboard user who acts in no workspace: none was asked for, or they are not a
 * member of it. Only `userProcedure`s serve them; a member is a `Caller` of kind `user`.
 */
export type NonMember = Pick<Extract<Caller, { kind: "user" }>, "kind" | "userId" | "email"> & { workspaceId: null; role: null };

export type Context = {
  db: Database;
  /** Who authenticated: an API key or a member of the workspace asked for (a `Caller`), a non-member, or nobody. */
  principal: Caller | NonMember | null;
  requestId: string;
  /** The service origin, for links in responses. */
  appUrl: string;
  /** Headers a procedure adds to its REST response (`Link` of D10, for example). */
  responseHeaders: Record<string, string>;
  /** A procedure whose success status depends on the outcome sets `status` (POST /suppressions: 200 for an existing entry). */
  response?: { status?: 200 | 201 | 202 };
  /** REST requests with an `Idempotency-Key`: the services that write an effect store the response with it (D46). */
  idempotency?: IdempotentEffect;
};

export type Meta = OpenApiMeta<{
  /** The API key scope the procedure needs (checked for key callers). */
  scope?: Scope;
  /** A POST that honours `Idempotency-Key` (D27, D28); the REST facade implements it. */
  idempotent?: boolean;
  /** Dashboard callers: the roles allowed (default: both for queries, admin for mutations). */
  roles?: ("admin" | "support")[];
  /**
   * A body with `dry_run: true` checks without acting (D71): the REST facade claims no
   * `Idempotency-Key` for it, and the OpenAPI document answers the output's second branch
   * with `200` beside the success status.
   */
  dryRun?: true;
  /** The largest body the REST facade reads for it (D26's 256 KiB by default; a batch's 5 MiB, D86). */
  maxBodyBytes?: number;
  /** A response the REST facade streams itself (Server-Sent Events, D77) instead of the procedure's JSON. */
  stream?: true;
  /** The success status the REST facade answers with (200 by default). */
  successStatus?: 200 | 201 | 202;
  /**
   * Another success status the procedure answers in some case (setting `ctx.response.status`),
   * with the same body, and when: for example `POST /suppressions` answers `200` with the
   * existing entry. The OpenAPI document lists it; the REST facade answers no status that is
   * not declared (`successStatuses`).
   */
  alsoAnswers?: { status: 200 | 201 | 202; description: string };
  /**
   * The catalog codes (server/lib/error-catalog.ts) this procedure's service can answer beyond
   * the platform's own (authentication, scope, input, idempotency, paging, a missing path id).
   * The OpenAPI document lists exactly these and the platform's, with their statuses (D56).
   */
  errors?: readonly ErrorCode[];
}>;

/**
 * Every success status a procedure may answer: `successStatus`, `alsoAnswers`' status, and
 * `200` for a dry run. The OpenAPI document lists exactly these, and the REST facade refuses to
 * answer any other, so a generated client knows every case.
 */
export function successStatuses(meta: Meta): number[] {
  return [...new Set([meta.successStatus ?? 200, ...(meta.alsoAnswers ? [meta.alsoAnswers.status] : []), ...(meta.dryRun ? [200] : [])])];
}

/** What a caller reads while the database cannot be reached: nothing was carried out. */
export const UNAVAILABLE_MESSAGE = "The service is briefly unavailable. Retry in a few seconds.";

/**
 * A database that cannot be reached (a restart, an outage) as tRPC's SERVICE_UNAVAILABLE
 * (HTTP 503, safe to retry), or null for any other error. The dashboard's calls get it from
 * the procedures and from their context; the REST facade answers its own 503 (rest.ts).
 */
export function unavailable(err: unknown): TRPCError | null {
  if (err instanceof TRPCError && err.code === "SERVICE_UNAVAILABLE") return err;
  return isConnectionError(err) ? new TRPCError({ code: "SERVICE_UNAVAILABLE", message: UNAVAILABLE_MESSAGE, cause: err }) : null;
}

/**
 * The contract error (spec "Errors", D29) a failure carries, whichever door it came through:
 * an AppError thrown anywhere (tRPC hands it on as a TRPCError's cause), or input a zod schema
 * refused. Null for anything else. The REST facade (rest.ts `toAppError`) and the dashboard's
 * errorFormatter below both start here; each then answers the rest in its own terms.
 */
export function appErrorOf(err: unknown): AppError | null {
  const cause = err instanceof TRPCError ? err.cause : err;
  if (cause instanceof AppError) return cause;
  return err instanceof TRPCError && err.code === "BAD_REQUEST" ? fromZodError(cause) : null;
}

const t = initTRPC
  .context<Context>()
  .meta<Meta>()
  .create({
    // The dashboard's view of errors: an AppError keeps its HTTP status, type, code and param;
    // an unexpected error is a generic 500 whose message reveals nothing (it is logged).
    // Every error names its request id, which the dashboard shows next to a failed load.
    errorFormatter({ shape, error, ctx }) {
      const request_id = ctx?.requestId;
      const app = appErrorOf(error);
      if (app) {
        return {
          ...shape,
          message: app.message,
          data: { ...shape.data, httpStatus: app.status, type: app.type, code: app.code, param: app.param, request_id },
        };
      }
      if (error.code === "SERVICE_UNAVAILABLE") {
        return { ...shape, message: UNAVAILABLE_MESSAGE, data: { ...shape.data, type: "api_error", stack: undefined, request_id } };
      }
      if (error.code === "INTERNAL_SERVER_ERROR") {
        return { ...shape, message: "An unexpected error occurred.", data: { ...shape.data, stack: undefined, request_id } };
      }
      return { ...shape, data: { ...shape.data, request_id } };
    },
  });

export const router = t.router;

export const createCallerFactory = t.createCallerFactory;

/** A procedure's result, with a connection error of its database work as a 503, not a 500. */
function unavailableAs503<R extends { ok: boolean; error?: TRPCError }>(result: R): R {
  if (!result.ok) {
    const mapped = unavailable(result.error!.cause ?? result.error);
    if (mapped) throw mapped;
  }
  return result;
}

/**
 * Any caller acting on a workspace: an API key (scope checked, D22) or a dashboard user
 * with a membership (role checked). Dashboard changes act in `live` mode (D31).
 */
function workspaceCaller(ctx: Context, meta: Meta | undefined, type: string): Extract<Caller, { kind: "key" | "user" }> {
  const principal = ctx.principal;
  if (!principal) throw new AppError("missing_api_key", "Authentication required.");
  if (principal.kind === "key") {
    if (meta?.scope && !grants(principal.scopes, meta.scope)) {
      throw new AppError("missing_scope", `This API key lacks the scope \`${meta.scope}\` that this endpoint needs.`);
    }
    return principal;
  }
  if (principal.kind !== "user" || principal.workspaceId === null) {
    throw new TRPCError({ code: "FORBIDDEN", message: "Choose a workspace you are a member of." });
  }
  const roles = meta?.roles ?? (type === "mutation" ? ["admin"] : ["admin", "support"]);
  if (!roles.includes(principal.role)) {
    throw new AppError("role_required", `This action needs the ${roles.join(" or ")} role.`);
  }
  return principal;
}

// Each kind of procedure has one middleware: who may call (its caller in the context), what
// input can be stored (D50: text the database cannot store and JSON nested too deep are
// refused with 400, whichever door the input came through, before its schema), and the 503 of
// a lost database. One, because tRPC copies the call's options at every middleware (issue 36).

export const workspaceProcedure = t.procedure.use(async ({ ctx, meta, type, getRawInput, next }) => {
  const caller = workspaceCaller(ctx, meta, type);
  assertStorable(await getRawInput());
  return unavailableAs503(await next({ ctx: { caller } }));
});

/** Dashboard-only procedures: a signed-in user, whatever workspace. */
export const userProcedure = t.procedure.use(async ({ ctx, getRawInput, next }) => {
  if (ctx.principal?.kind !== "user") throw new TRPCError({ code: "UNAUTHORIZED", message: "Sign in first." });
  const user = ctx.principal;
  assertStorable(await getRawInput());
  return unavailableAs503(await next({ ctx: { user } }));
});
