import type { IncomingMessage, ServerResponse } from "node:http";
import { TRPCError } from "@trpc/server";
import {
  acceptsRequestBody,
  coerceSchema,
  forEachOpenApiProcedure,
  getInputOutputParsers,
  getPathRegExp,
  instanceofZodTypeLikeVoid,
  instanceofZodTypeObject,
  normalizePath,
  unwrapZodType,
} from "trpc-to-openapi";
import type { Logger } from "pino";
import { isConnectionError, type Database } from "../db/client.ts";
import { authenticateKey, consumeAnonymous } from "../keys/authenticate-key.ts";
import { grants } from "../keys/scopes.ts";
import type { Caller } from "../lib/caller.ts";
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  IdempotentEffect,
  isStorable,
  keyInUse,
  releaseIdempotencyKey,
  type IdempotencyScope,
} from "../idempotency/idempotency.ts";
import { canonicalJson } from "../lib/canonical-json.ts";
import { clientAddress } from "../lib/client-address.ts";
import { sha256Hex } from "../lib/crypto.ts";
import { errorDocUrl } from "../lib/error-catalog.ts";
import { dropRest, readNodeBody } from "../lib/read-body.ts";
import { AppError } from "../lib/errors.ts";
import { assertStorable } from "../lib/storable-input.ts";
import type { RateDecision } from "../ratelimit/sliding-window.ts";
import { streamEvents } from "../webhooks/event-stream.ts";
import { openApiDocument } from "./openapi.ts";
import { API_PREFIX } from "./rest-paths.ts";
import { appRouter } from "./root.ts";
import { appErrorOf, createCallerFactory, successStatuses, UNAVAILABLE_MESSAGE, type Context, type Meta } from "./trpc.ts";

// The public REST facade (/api/v1): the shared router's procedures at the paths their OpenAPI
// meta gives them (trpc-to-openapi's route patterns), with the platform rules around them, each
// in one place: CORS and the browser rule (D23), key authentication and plan gating (D21, D22),
// the rate limit and its headers (D24), body limits (D26), idempotency (D27, D28) and the spec's
// error body (D29). The facade reads the request once and calls the procedure in-process:
// trpc-to-openapi's node-http adapter would route it again and build a fetch Request around it
// for each call (issue 36: a tenth of what a send allocated).

export { API_PREFIX };
export const MAX_BODY_BYTES = 256 * 1024;

/**
 * A public operation: its method, path pattern, meta, the query parameters it takes (D79), and
 * its procedure: where the caller finds it, and how its input is read (the JSON body; the
 * query string, whose array fields take one value as a list of one; or none).
 */
type Route = {
  method: string;
  regexp: RegExp;
  meta: Meta;
  query: ReadonlySet<string>;
  procedure: string[];
  input: "body" | "query" | "none";
  arrays: ReadonlySet<string>;
};

const routes: Route[] = [];
forEachOpenApiProcedure(appRouter._def.procedures, ({ path: procedurePath, meta, procedure }) => {
  const m = meta as Meta;
  if (!m.openapi) return;
  const { inputParser } = getInputOutputParsers(procedure as Parameters<typeof getInputOutputParsers>[0]);
  const schema = unwrapZodType(inputParser, true);
  const path = normalizePath(m.openapi.path);
  const inPath = new Set([...path.matchAll(/\{(\w+)\}/g)].map((p) => p[1]!));
  const fromQuery = !acceptsRequestBody(m.openapi.method);
  const shape = instanceofZodTypeObject(schema) ? (schema as unknown as { shape: Record<string, unknown> }).shape : {};
  // Query strings carry text: their number, boolean and date fields are coerced, once, here.
  // JSON bodies carry real types and are checked strictly (`"yes"` is no boolean).
  if (fromQuery && instanceofZodTypeObject(schema)) coerceSchema(schema);
  routes.push({
    method: m.openapi.method,
    regexp: getPathRegExp(path),
    meta: m,
    query: m.openapi.method === "GET" ? new Set(Object.keys(shape).filter((k) => !inPath.has(k))) : new Set<string>(),
    procedure: procedurePath.split("."),
    input: instanceofZodTypeLikeVoid(schema) ? "none" : fromQuery ? "query" : "body",
    arrays: new Set(
      Object.entries(shape)
        .filter(([, field]) => isArraySchema(field))
        .map(([k]) => k),
    ),
  });
});

function isArraySchema(field: unknown): boolean {
  const def = (field as { _zod?: { def?: { type?: string; innerType?: unknown } } })._zod?.def;
  return def?.type === "array" || (def?.type === "optional" && isArraySchema(def.innerType));
}

/** The procedures, called in-process with the request's context (no HTTP adapter between). */
const createCaller = createCallerFactory(appRouter);

type RestRequest = IncomingMessage & { body?: unknown };

type Outcome = { status: number; body: string; headers: Record<string, string> };

/** The outcome of a request whose response was streamed and is over. */
const STREAMED = Symbol("streamed");

/** What the access log says of an API call (D54): who called and, on errors, the code. */
export type RequestFacts = { workspace?: string; key_id?: string; code?: string };

export type RestDeps = { database: Database; appUrl: string; requestId: string; log: Logger; facts?: RequestFacts };

function errorCodeOf(body: string): string | undefined {
  try {
    return (JSON.parse(body) as { error?: { code?: string } }).error?.code;
  } catch {
    return undefined;
  }
}

export function errorBody(err: AppError, appUrl: string): string {
  return JSON.stringify({
    error: { type: err.type, code: err.code, message: err.message, param: err.param, doc_url: errorDocUrl(appUrl, err.code) },
  });
}

/** An error's answer, with the headers HTTP asks of its status (D79): `WWW-Authenticate` on a 401, `Allow` on a 405. */
function errorOutcome(err: AppError, appUrl: string): Outcome {
  const headers: Record<string, string> = {};
  if (err.status === 401) headers["WWW-Authenticate"] = "Bearer";
  const allow = allowOf.get(err);
  if (allow) headers.Allow = allow;
  return { status: err.status, body: errorBody(err, appUrl), headers };
}

export async function handleRest(req: IncomingMessage, res: ServerResponse, deps: RestDeps): Promise<void> {
  setCorsHeaders(req, res);
  if (req.method === "OPTIONS") {
    res.writeHead(204).end();
    return;
  }
  if (req.method === "GET" && /^\/api\/v1\/openapi\.json(\?|$)/.test(req.url ?? "")) {
    // The API description is public: no key, no rate limit.
    res.setHeader("Content-Type", "application/json; charset=utf-8");
    res.setHeader("Cache-Control", "public, max-age=300");
    res.writeHead(200).end(JSON.stringify(openApiDocument(deps.appUrl)));
    return;
  }
  let rate: RateDecision | null = null;
  let outcome: Outcome;
  try {
    const authenticated = await authenticate(req, deps);
    rate = authenticated.rate;
    if (authenticated.key && deps.facts) {
      deps.facts.workspace = authenticated.key.caller.workspaceId;
      deps.facts.key_id = authenticated.key.caller.keyId;
    }
    if (rate) {
      res.setHeader("RateLimit-Limit", rate.limit);
      res.setHeader("RateLimit-Remaining", rate.remaining);
      res.setHeader("RateLimit-Reset", rate.reset);
      if (!rate.allowed) res.setHeader("Retry-After", rate.retryAfter);
    }
    const after = authenticated.key ? await afterAuthentication(req, res, deps, authenticated.key, rate) : authenticated.outcome!;
    if (after === STREAMED) return;
    outcome = after;
  } catch (err) {
    outcome = errorOutcome(toAppError(err, deps), deps.appUrl);
  }
  if (outcome.status >= 400 && deps.facts) deps.facts.code = errorCodeOf(outcome.body);
  for (const [k, v] of Object.entries(outcome.headers)) res.setHeader(k, v);
  res.setHeader("Content-Type", "application/json; charset=utf-8");
  res.writeHead(outcome.status).end(outcome.body);
}

/** A valid key: the caller it makes, and whether its workspace's plan includes the API. */
type AuthenticatedKey = { caller: Extract<Caller, { kind: "key" }>; apiAccess: boolean };

async function authenticate(
  req: IncomingMessage,
  deps: RestDeps,
): Promise<{ key: AuthenticatedKey; rate: RateDecision; outcome?: undefined } | { key: null; rate: RateDecision; outcome: Outcome }> {
  const header = req.headers.authorization ?? "";
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  try {
    const { caller, apiAccess, rate } = await authenticateKey(deps.database, match?.[1]);
    return { key: { caller, apiAccess }, rate };
  } catch (err) {
    if (!(err instanceof AppError) || err.type !== "authentication") throw err;
    const rate = await consumeAnonymous(deps.database, clientAddress(req));
    const outcome = rate.allowed ? errorOutcome(err, deps.appUrl) : errorOutcome(rateLimited(rate), deps.appUrl);
    return { key: null, rate, outcome };
  }
}

async function afterAuthentication(
  req: RestRequest,
  res: ServerResponse,
  deps: RestDeps,
  { caller, apiAccess }: AuthenticatedKey,
  rate: RateDecision,
): Promise<Outcome | typeof STREAMED> {
  if (!apiAccess) {
    throw new AppError("plan_without_api_access", "This workspace's plan does not include API access. Upgrade the plan to use the API.");
  }
  if (caller.mode === "live" && req.headers.origin !== undefined) {
    throw new AppError(
      "live_key_in_browser",
      "Live keys are refused from browsers (the request has an Origin header). Call the API from your backend, or use a test key.",
    );
  }
  if (!rate.allowed) throw rateLimited(rate);

  const url = new URL(req.url ?? "/", "http://localhost");
  const path = normalizePath(url.pathname.slice(API_PREFIX.length) || "/");
  const method = req.method ?? "GET";
  const route = matchRoute(method, path);
  // D79, as D58 for bodies: a misspelt filter answers 400 instead of an unfiltered list.
  for (const name of url.searchParams.keys()) {
    if (!route.query.has(name)) {
      throw new AppError("unknown_parameter", `${name} is not a known query parameter of ${method} ${API_PREFIX}${path}.`, { param: name });
    }
  }

  if (route.meta.stream) {
    // A response that stays open (D77), answered here rather than through the procedure.
    if (route.meta.scope && !grants(caller.scopes, route.meta.scope)) {
      throw new AppError("missing_scope", `This API key lacks the scope \`${route.meta.scope}\` that this endpoint needs.`);
    }
    assertStorable(Object.fromEntries(url.searchParams));
    await streamEvents(res, deps.database, caller, url.searchParams, req.headers);
    return STREAMED;
  }

  let body: unknown;
  if (method === "POST" || method === "PUT" || method === "PATCH") {
    body = parseJson(await readBody(req, route.meta.maxBodyBytes ?? MAX_BODY_BYTES));
    req.body = body;
    req.headers["content-type"] = "application/json";
  }

  const idempotencyKey = req.headers["idempotency-key"];
  // D71: a dry run writes nothing, so it neither claims nor replays an Idempotency-Key.
  const dryRun = route.meta.dryRun && typeof body === "object" && body !== null && (body as { dry_run?: unknown }).dry_run === true;
  if (!route.meta.idempotent || idempotencyKey === undefined || dryRun) {
    return dispatch(req, deps, caller, route, url, path);
  }
  const key = Array.isArray(idempotencyKey) ? idempotencyKey[0]! : idempotencyKey;
  if (key.length < 1 || key.length > 255) {
    throw new AppError("invalid_idempotency_key", "Idempotency-Key must be 1 to 255 characters.", {
      param: "Idempotency-Key",
    });
  }
  const scope: IdempotencyScope = { workspaceId: caller.workspaceId, mode: caller.mode, method, path, key };
  const claim = await claimIdempotencyKey(deps.database, scope, sha256Hex(canonicalJson(body ?? null)));
  if (claim.kind === "mismatch") {
    throw new AppError(
      "idempotency_key_reused",
      "This Idempotency-Key was already used with a different request body. Use a new key for a new request.",
      { param: "Idempotency-Key" },
    );
  }
  if (claim.kind === "in_progress") throw keyInUse();
  if (claim.kind === "replay") {
    return { ...claim.response, headers: { ...claim.response.headers, "Idempotent-Replayed": "true" } };
  }
  // A service that writes an effect stores its success response in the same transaction (D46);
  // every other outcome is stored (or released) here, after the request.
  const effect = new IdempotentEffect(claim.held, route.meta.successStatus ?? 200);
  let outcome: Outcome | undefined;
  try {
    outcome = await dispatch(req, deps, caller, route, url, path, effect);
    return outcome;
  } finally {
    if (!outcome || !isStorable(outcome.status)) await releaseIdempotencyKey(deps.database.query, claim.held);
    else if (!effect.storedWithEffect) await completeIdempotencyKey(deps.database.query, claim.held, outcome);
  }
}

/** The methods a path serves, for the `Allow` header of its `405` (D79). */
const allowOf = new WeakMap<AppError, string>();

function matchRoute(method: string, path: string): Route {
  const candidates = routes.filter((r) => r.regexp.test(path));
  const route = candidates.find((r) => r.method === method);
  if (route) return route;
  if (candidates.length > 0) {
    const allowed = [...new Set(candidates.map((r) => r.method))].join(", ");
    const err = new AppError("method_not_allowed", `${method} is not allowed on ${API_PREFIX}${path}. Allowed: ${allowed}.`);
    allowOf.set(err, allowed);
    throw err;
  }
  throw new AppError("route_not_found", `No such endpoint: ${method} ${API_PREFIX}${path}.`);
}

async function dispatch(
  req: RestRequest,
  deps: RestDeps,
  caller: Caller,
  route: Route,
  url: URL,
  path: string,
  idempotency?: IdempotentEffect,
): Promise<Outcome> {
  const context: Context = {
    db: deps.database,
    principal: caller,
    requestId: deps.requestId,
    appUrl: deps.appUrl,
    responseHeaders: {},
    response: {},
    idempotency,
  };
  const input =
    route.input === "none"
      ? undefined
      : { ...(route.input === "body" ? (req.body as object) : queryInput(url, route)), ...route.regexp.exec(path)?.groups };
  let data: unknown;
  try {
    // The caller is a tree of procedures by name; the route names one of its leaves.
    type Node = Record<string, unknown> & ((input: unknown) => Promise<unknown>);
    const call = route.procedure.reduce((at, segment) => at[segment] as Node, createCaller(context) as unknown as Node);
    data = await call(input);
  } catch (err) {
    return errorOutcome(toAppError(err, deps), deps.appUrl);
  }
  const status = context.response?.status ?? route.meta.successStatus ?? 200;
  // A status the OpenAPI document does not list would surprise every generated client: a
  // procedure must declare it (`meta.alsoAnswers`) before answering it.
  if (!successStatuses(route.meta).includes(status)) {
    return errorOutcome(
      toAppError(new Error(`${route.meta.openapi?.path ?? path} answered the undeclared status ${status}`), deps),
      deps.appUrl,
    );
  }
  return {
    status,
    body: JSON.stringify(data) ?? "",
    headers: context.responseHeaders,
  };
}

/** A query string as input: each parameter's value, or its values when repeated (or an array field's). */
function queryInput(url: URL, route: Route): Record<string, string | string[]> {
  const input: Record<string, string | string[]> = {};
  for (const name of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(name);
    input[name] = values.length === 1 && !route.arrays.has(name) ? values[0]! : values;
  }
  return input;
}

/** Every failure becomes one of the spec's error types; unknown ones are a logged 500. */
export function toAppError(err: unknown, deps: Pick<RestDeps, "log" | "requestId">): AppError {
  const app = appErrorOf(err);
  if (app) return app;
  const cause = err instanceof TRPCError ? err.cause : err;
  if (err instanceof TRPCError) {
    if (err.code === "NOT_FOUND") return new AppError("resource_missing", err.message);
    if (err.code === "FORBIDDEN") return new AppError("forbidden", err.message);
    if (err.code === "UNAUTHORIZED") return new AppError("invalid_api_key", err.message);
    if (err.code === "PARSE_ERROR") return invalidJson();
    if (err.code === "PAYLOAD_TOO_LARGE") return bodyTooLarge();
  }
  if (isConnectionError(cause) || isConnectionError(err)) {
    deps.log.warn({ err, requestId: deps.requestId }, "database unreachable");
    return new AppError("service_unavailable", UNAVAILABLE_MESSAGE);
  }
  deps.log.error({ err, requestId: deps.requestId }, "unexpected error");
  return new AppError("internal_error", `An unexpected error occurred. Quote request id ${deps.requestId} to support.`);
}

function rateLimited(rate: RateDecision): AppError {
  return new AppError(
    "rate_limited",
    `Too many requests: the limit is ${rate.limit} per rolling 60 seconds. Retry after ${rate.retryAfter} s.`,
  );
}

const invalidJson = () => new AppError("invalid_json", "The request body is not valid JSON.");
const bodyTooLarge = (max = MAX_BODY_BYTES) =>
  new AppError(
    "body_too_large",
    `The request body is larger than ${max >= 1024 * 1024 ? `${max / 1024 / 1024} MiB` : `${max / 1024} KiB`}.`,
  );

function parseJson(raw: Buffer): unknown {
  if (raw.length === 0) return {};
  let value: unknown;
  try {
    value = JSON.parse(raw.toString("utf8"));
  } catch {
    throw invalidJson();
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new AppError("invalid_json", "The request body must be a JSON object.");
  }
  assertStorable(value); // before anything walks the body (D50)
  return value;
}

/** The body, up to `max` bytes (D26; a route may allow more, D86). */
async function readBody(req: IncomingMessage, max: number): Promise<Buffer> {
  const raw = await readNodeBody(req, max);
  if (raw) return raw;
  dropRest(req);
  throw bodyTooLarge(max);
}

/**
 * CORS for every path (D23): browsers may call with test keys; live keys are refused after
 * authentication. Preflights are answered without a key.
 */
function setCorsHeaders(req: IncomingMessage, res: ServerResponse): void {
  if (!req.headers.origin) return;
  res.setHeader("Access-Control-Allow-Origin", "*");
  res.setHeader(
    "Access-Control-Expose-Headers",
    "Request-Id, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After, Idempotent-Replayed, Link",
  );
  if (req.method === "OPTIONS") {
    res.setHeader("Access-Control-Allow-Methods", "GET, POST, PATCH, DELETE, OPTIONS");
    res.setHeader("Access-Control-Allow-Headers", "Authorization, Content-Type, Idempotency-Key");
    res.setHeader("Access-Control-Max-Age", "600");
  }
}
