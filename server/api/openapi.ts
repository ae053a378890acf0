import { createSchema } from "zod-openapi";
import { forEachOpenApiProcedure, generateOpenApiDocument, normalizePath, type OpenAPIObject } from "trpc-to-openapi";
import { EVENT_NAMES, type EventName } from "../events/event-names.ts";
import { EVENTS, eventBodySchema } from "../events/event-schemas.ts";
import {
  codeStatus,
  ERROR_CODES,
  ERROR_TYPES,
  errorDocUrl,
  ERROR_STATUS,
  type ErrorCode,
  type ErrorCodeDoc,
  type ErrorWhere,
} from "../lib/error-catalog.ts";
import { API_VERSION } from "./routers/system/get-key-check.types.ts";
import { API_PREFIX } from "./rest-paths.ts";
import { appRouter } from "./root.ts";
import type { Meta } from "./trpc.ts";

// The OpenAPI 3.1 document of the public API, served at /api/v1/openapi.json and rendered at
// /docs. trpc-to-openapi generates it from the same router and zod schemas that serve the
// requests; `finish` then applies the platform rules that no procedure states itself, to
// every operation alike (procedures added later included):
// - bearer security on every operation, and globally;
// - error responses 401, 403, 429, 500 and 503 everywhere, 400 where there is input, 404 where a
//   path names a resource, 409 and 422 where `Idempotency-Key` applies, and whatever the error
//   catalog (server/lib/error-catalog.ts) ties to the endpoint; all with the one `Error`
//   schema of D29 and one example per code;
// - the RateLimit-* and Request-Id headers on every response, Retry-After on 429 (D24);
// - `meta.scope` in the description and as `x-required-scope`; `meta.idempotent` as the
//   optional `Idempotency-Key` header (D27, D28); `meta.successStatus` as the success status,
//   and `meta.alsoAnswers` as another one (every status `successStatuses` allows);
// - request and response examples assembled from the schemas' own examples.

type Json = Record<string, unknown>;
type Media = { schema?: Json; example?: unknown; examples?: Json };
type Response = { description: string; headers?: Record<string, unknown>; content?: Record<string, Media> };
type Parameter = { name?: string; in?: string; description?: string; required?: boolean; schema?: Json; $ref?: string };
type Operation = {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content?: Record<string, Media> };
  responses: Record<string, Response>;
  "x-required-scope"?: string;
};

const METHODS = ["get", "post", "put", "patch", "delete"] as const;
const SECURITY = [{ bearerAuth: [] as string[] }];

const STATUS_TITLE: Record<number, string> = {
  400: "Invalid request: `param` names the parameter at fault",
  401: "No API key, or an unknown, malformed or revoked one",
  403: "Forbidden",
  404: "Not found",
  409: "Conflict with the current state",
  422: "`Idempotency-Key` reused with a different body",
  429: "Rate limit exceeded: retry after `Retry-After` seconds",
  500: "Unexpected error: safe to retry",
  503: "The database is briefly unreachable: safe to retry",
};

const SUCCESS_TITLE: Record<number, string> = { 200: "OK", 201: "Created", 202: "Accepted" };

let cached: { appUrl: string; doc: OpenAPIObject } | undefined;

export function openApiDocument(appUrl: string): OpenAPIObject {
  if (cached?.appUrl === appUrl) return cached.doc;
  const doc = generateOpenApiDocument(appRouter, {
    title: "svc API",
    version: API_VERSION,
    baseUrl: `${appUrl}${API_PREFIX}`,
    description: introduction(appUrl),
    docsUrl: `${appUrl}/docs`,
    securitySchemes: {
      bearerAuth: {
        type: "http",
        scheme: "bearer",
        bearerFormat: "svc_test_… or svc_live_…",
        description:
          "An API key from the dashboard: `svc_test_…` keys simulate sending (nothing is dispatched, no quota is spent); `svc_live_…` keys really send. Send it as `Authorization: Bearer <key>`.",
      },
    },
    license: { name: "Proprietary", url: `${appUrl}/docs` },
    contact: { name: "svc support", url: `${appUrl}/docs` },
  });
  finish(doc, appUrl);
  cached = { appUrl, doc };
  return doc;
}

function introduction(appUrl: string): string {
  return [
    "Server-to-server API for transactional WhatsApp messages and e-mails, contacts, tags and custom fields, journeys (flows), usage reports and signed webhooks.",
    "",
    `- **Base URL:** \`${appUrl}${API_PREFIX}\`. Bodies are JSON; timestamps are ISO 8601 in UTC.`,
    "- **Authentication:** `Authorization: Bearer <key>`. Test keys (`svc_test_…`) simulate sending; live keys (`svc_live_…`) send, and are refused from browsers.",
    "- **Idempotency:** endpoints that say so accept an `Idempotency-Key` header; a retry with the same key and body within 24 hours replays the first response.",
    "- **Rate limit:** 120 requests per rolling minute per key by default; every response carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`.",
    `- **Errors:** \`{ "error": { "type", "code", "message", "param", "doc_url" } }\`, explained in the [error reference](${appUrl}/docs/errors).`,
    "",
    `New here? Read [Getting started](${appUrl}/docs/getting-started).`,
  ].join("\n");
}

/** What the post-processing needs to know of each public procedure. */
type Procedure = { meta: Meta; method: string; path: string; inputDescriptions: Record<string, string> };

function procedures(): Procedure[] {
  const found: Procedure[] = [];
  forEachOpenApiProcedure(appRouter._def.procedures, ({ meta, procedure }) => {
    const m = meta as Meta;
    if (!m.openapi) return;
    const input = (procedure as unknown as { _def: { inputs?: unknown[] } })._def.inputs?.[0] as
      { shape?: Record<string, { description?: string }> } | undefined;
    const inputDescriptions: Record<string, string> = {};
    for (const [name, field] of Object.entries(input?.shape ?? {})) if (field.description) inputDescriptions[name] = field.description;
    found.push({ meta: m, method: m.openapi.method.toLowerCase(), path: normalizePath(m.openapi.path), inputDescriptions });
  });
  return found;
}

/** `POST /messages`, …: the public operations whose procedure declares `code` in `meta.errors` (/docs/errors). */
export function declaringOperations(code: ErrorCode): string[] {
  return procedures()
    .filter((p) => p.meta.errors?.includes(code))
    .map((p) => `${p.method.toUpperCase()} ${p.path}`);
}

function finish(doc: OpenAPIObject, appUrl: string): void {
  const components = (doc.components ??= {}) as Json & { schemas?: Record<string, Json> };
  const schemas = (components.schemas ??= {});
  // trpc-to-openapi's own error shapes are not what the facade answers (STYLE.md "Edges").
  for (const name of Object.keys(schemas)) if (name.startsWith("error.")) delete schemas[name];
  schemas.ApiError = errorSchema();
  components.headers = { ...(components.headers as Json | undefined), ...HEADERS };
  components.parameters = { ...(components.parameters as Json | undefined), IdempotencyKey: IDEMPOTENCY_KEY };

  doc.servers = [{ url: `${appUrl}${API_PREFIX}`, description: "This service." }];
  doc.security = SECURITY;
  doc.externalDocs = { url: `${appUrl}/docs/getting-started`, description: "Getting started" };

  const byRoute = new Map(procedures().map((p) => [`${p.method} ${p.path}`, p]));
  const tags: string[] = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = (item as Record<string, Operation | undefined>)[method];
      if (!op) continue;
      const procedure = byRoute.get(`${method} ${path}`);
      finishOperation(
        op,
        { method, path, meta: procedure?.meta ?? {}, inputDescriptions: procedure?.inputDescriptions ?? {} },
        appUrl,
        schemas,
      );
      for (const tag of op.tags ?? []) if (!tags.includes(tag)) tags.push(tag);
    }
  }
  doc.tags = tags.map((name) => ({ name, description: TAG_DESCRIPTIONS[name] ?? name }));
  hoistRequestBodies(doc, schemas);
  for (const schema of Object.values(schemas)) splitByChannel(schema);
  hoistBranches(schemas);
  markTimestamps(doc);
  (doc as unknown as Json).webhooks = webhooks(schemas);
}

const TAG_DESCRIPTIONS: Record<string, string> = {
  "Key check": "Check that an API key works, and see its workspace and mode.",
  Tags: "Labels for contacts, unique per workspace.",
  "Custom fields": "Typed values kept on contacts, usable as `{{placeholders}}` in messages.",
  Contacts: "People to message, matched by phone or e-mail.",
  Messages: "Transactional WhatsApp messages and e-mails.",
  Usage: "Live messages counted this month against the plan's limits.",
  Flows: "Journeys: enroll contacts in active flows and take them out.",
  Channels: "Your WhatsApp and e-mail channels, and whether an e-mail channel's domain is ready to send.",
  WhatsApp: "The message templates of your WhatsApp channels, synced from Meta.",
  Suppressions: "E-mail addresses that e-mail is not sent to: hard bounces, spam complaints and your own entries.",
};

const pascal = (text: string) =>
  text
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join("");

/** `mensagem.enviada` → `MensagemEnviadaEvent`: the component of an event's body. */
const eventSchemaName = (name: EventName) => `${pascal(name)}Event`;

/**
 * Request bodies become named components (D56): `messages-send` → `SendMessageRequest`, so a
 * generated client has a type to import for each.
 */
function hoistRequestBodies(doc: OpenAPIObject, schemas: Record<string, Json>): void {
  for (const item of Object.values(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = (item as Record<string, Operation | undefined>)[method];
      const media = op?.requestBody?.content?.["application/json"];
      if (!op?.operationId || !media?.schema || media.schema.$ref) continue;
      const [resource = "", verb = ""] = op.operationId.split("-");
      const name = `${pascal(verb)}${pascal(resource.replace(/s$/, ""))}Request`;
      schemas[name] = media.schema;
      media.schema = { $ref: `#/components/schemas/${name}` };
    }
  }
}

/**
 * A `oneOf` whose branches carry a `title` (the Recipient, the message payload by channel)
 * gets each branch as a named component, and a `discriminator` when every branch fixes the
 * same property to a constant (`channel`).
 */
function hoistBranches(schemas: Record<string, Json>): void {
  for (const schema of Object.values(schemas)) {
    const branches = schema.oneOf;
    if (!Array.isArray(branches) || !branches.every((b) => isObject(b) && typeof b.title === "string")) continue;
    const mapping: Record<string, string> = {};
    let discriminator: string | undefined;
    schema.oneOf = branches.map((branch: Json) => {
      const name = branch.title as string;
      const ref = `#/components/schemas/${name}`;
      schemas[name] = branch;
      const fixed = Object.entries(isObject(branch.properties) ? branch.properties : {}).find(
        ([, p]) => isObject(p) && p.const !== undefined,
      );
      if (fixed && (discriminator ?? fixed[0]) === fixed[0]) {
        discriminator = fixed[0];
        mapping[String((fixed[1] as Json).const)] = ref;
      }
      return { $ref: ref };
    });
    if (discriminator && Object.keys(mapping).length === branches.length) schema.discriminator = { propertyName: discriminator, mapping };
  }
}

/** Every `*_at` is an ISO 8601 timestamp written by `toISOString()` (D56). */
function markTimestamps(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(markTimestamps);
  if (!isObject(node)) return;
  if (isObject(node.properties)) {
    for (const [name, property] of Object.entries(node.properties)) {
      const types = isObject(property) ? [property.type].flat() : [];
      if (name.endsWith("_at") && types.includes("string") && isObject(property)) property.format = "date-time";
    }
  }
  for (const value of Object.values(node)) markTimestamps(value);
}

/**
 * A body with a `channel` enum and one content property per channel (`whatsapp`, `email`)
 * becomes one branch per channel, `channel` fixed in each (D16, D56).
 */
function splitByChannel(schema: Json): void {
  const properties = isObject(schema.properties) ? schema.properties : {};
  const channels = isObject(properties.channel) ? properties.channel.enum : undefined;
  if (!Array.isArray(channels) || !channels.every((c) => typeof c === "string" && c in properties)) return;
  const { properties: _p, required = [], type: _t, ...kept } = schema;
  const common = Object.fromEntries(Object.entries(properties).filter(([key]) => key !== "channel" && !channels.includes(key)));
  for (const key of Object.keys(schema)) delete schema[key];
  Object.assign(schema, kept, {
    oneOf: channels.map((channel: string) => ({
      title: `Send${channel === "whatsapp" ? "WhatsApp" : pascal(channel)}MessageRequest`,
      type: "object",
      properties: { channel: { type: "string", const: channel }, ...common, [channel]: properties[channel] },
      required: [...(required as string[]), channel],
    })),
  });
}

/** The event bodies a webhook endpoint receives (OpenAPI 3.1 `webhooks`, D31, D56). */
function webhooks(schemas: Record<string, Json>): Json {
  for (const name of EVENT_NAMES) {
    const { schema, components } = createSchema(eventBodySchema(name), { io: "output", openapiVersion: "3.1.0" });
    for (const [id, component] of Object.entries(components)) schemas[id] ??= component as Json;
    schemas[eventSchemaName(name)] = schema as Json;
  }
  return Object.fromEntries(
    EVENT_NAMES.map((name) => [
      name,
      {
        post: {
          operationId: `event-${name.replace(".", "-")}`,
          summary: `${name}: ${EVENTS[name].description.replace(/\.$/, "")}`,
          description: `${EVENTS[name].description}\n\nSent to each enabled endpoint subscribed to \`${name}\`. ${WEBHOOK_NOTE}`,
          tags: ["Webhooks"],
          security: [],
          parameters: [SIGNATURE_PARAMETER],
          requestBody: {
            required: true,
            content: { "application/json": { schema: { $ref: `#/components/schemas/${eventSchemaName(name)}` } } },
          },
          responses: { "200": { description: "Any 2xx answer within 10 seconds acknowledges the delivery; anything else is retried." } },
        },
      },
    ]),
  );
}

const WEBHOOK_NOTE =
  "Verify the signature on the raw body before parsing it, answer 2xx quickly, and deduplicate on `id`: a delivery may come more than once and out of order.";

const SIGNATURE_PARAMETER = {
  name: "X-svc-Signature",
  in: "header",
  required: true,
  description:
    "`t=<unix seconds>,v1=<hex>[,v1=<hex>…]`: each `v1` is the lowercase hex HMAC-SHA256 of `<t>.<raw body>` keyed with one of the endpoint's valid secrets.",
  schema: { type: "string" },
  example: "t=1763700000,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd",
};

type Facts = {
  method: string;
  path: string;
  scope: string | undefined;
  idempotent: boolean;
  hasInput: boolean;
  hasBody: boolean;
  pathParams: string[];
  /** The first body or query parameter, for examples of `param`. */
  firstParam: string | undefined;
  isList: boolean;
};

function finishOperation(op: Operation, procedure: Procedure, appUrl: string, schemas: Record<string, Json>): void {
  const { meta, method, path } = procedure;
  const parameters = (op.parameters ??= []);
  const pathParams = parameters.filter((p) => p.in === "path" && p.name).map((p) => p.name!);
  const success = op.responses["200"];
  const successSchema = success?.content?.["application/json"]?.schema;
  const body = op.requestBody?.content?.["application/json"]?.schema;
  const bodyFields = [
    ...((body?.required as string[] | undefined) ?? []),
    ...Object.keys(isObject(body?.properties) ? body.properties : {}),
  ];
  const facts: Facts = {
    method: method.toUpperCase(),
    path,
    scope: meta.scope,
    idempotent: meta.idempotent === true,
    hasInput: parameters.length > 0 || op.requestBody !== undefined,
    hasBody: method === "post" || method === "put" || method === "patch",
    pathParams,
    firstParam: bodyFields[0] ?? parameters.find((p) => p.in === "query")?.name ?? pathParams[0],
    isList: successSchema?.type === "array" && parameters.some((p) => p.in === "query" && p.name === "after"),
  };

  op.security = SECURITY;

  // Parameters: keep the zod descriptions trpc-to-openapi drops on optional fields.
  for (const p of parameters) {
    if (p.$ref || !p.name) continue;
    p.description ??= (p.schema?.description as string | undefined) ?? procedure.inputDescriptions[p.name];
    if (p.description === undefined) delete p.description;
  }
  if (facts.idempotent) parameters.push({ $ref: "#/components/parameters/IdempotencyKey" });
  if (parameters.length === 0) delete op.parameters;

  // Description: the scope (D12, D22) and idempotency (D27, D28), stated the same way everywhere.
  const notes = [
    facts.scope ? `**Scope:** \`${facts.scope}\`.` : "**Scope:** none; any valid key may call it.",
    ...(facts.idempotent
      ? [
          "**Idempotency:** send an `Idempotency-Key` header (for example a UUID) to retry safely: the same key and body within 24 hours replay the first response with `Idempotent-Replayed: true`; the same key with another body is a `422`.",
        ]
      : []),
  ];
  op.description = [op.description, notes.join("\n\n")].filter(Boolean).join("\n\n");
  if (facts.scope) op["x-required-scope"] = facts.scope;

  // Success response: its status, description, headers and example.
  const successStatus = meta.successStatus ?? 200;
  const responses: Record<string, Response> = {};
  if (success) {
    if (success.description === "Successful response") success.description = SUCCESS_TITLE[successStatus] ?? "Success";
    // A dry run (D71): the output's second branch is answered with 200, the first with the success status.
    const media = success.content?.["application/json"];
    const branches = media?.schema?.anyOf;
    if (meta.dryRun && media && Array.isArray(branches) && branches.length === 2) {
      media.schema = branches[0] as Json;
      delete media.example;
      const dry: Media = { schema: branches[1] as Json };
      addExample(dry, schemas);
      responses["200"] = {
        description: "OK: a dry run (`dry_run: true`): the message as it would be created, with no `id`. Nothing was written or sent.",
        headers: { ...COMMON_HEADERS },
        content: { "application/json": dry },
      };
    }
    success.headers = {
      ...success.headers,
      ...COMMON_HEADERS,
      ...(facts.isList ? { Link: { $ref: "#/components/headers/Link" } } : {}),
      ...(facts.idempotent ? { "Idempotent-Replayed": { $ref: "#/components/headers/Idempotent-Replayed" } } : {}),
    };
    for (const media of Object.values(success.content ?? {})) addExample(media, schemas);
    // A streamed response (D77) is Server-Sent Events, not JSON.
    if (meta.stream && success.content?.["application/json"]) {
      success.content = { "text/event-stream": success.content["application/json"] };
    }
    responses[String(successStatus)] = success;
    // Another success status the procedure answers in some case, with the same body.
    if (meta.alsoAnswers) {
      responses[String(meta.alsoAnswers.status)] = { ...success, description: meta.alsoAnswers.description };
    }
  }
  for (const media of Object.values(op.requestBody?.content ?? {})) addExample(media, schemas);

  // Error responses (D56): exactly the statuses of the catalog codes that apply, the platform's
  // by where they occur and the procedure's own by `meta.errors`; nothing else.
  const codes = operationErrors(meta, facts);
  for (const status of [...new Set(codes.map(codeStatus))].sort((a, b) => a - b)) {
    const shown = codes.filter((c) => codeStatus(c) === status);
    const title = STATUS_TITLE[status] ?? "Error";
    responses[String(status)] = {
      description: `${title} (${shown.map((c) => `\`${c.code}\``).join(", ")}).`,
      headers: { ...COMMON_HEADERS, ...(status === 429 ? { "Retry-After": { $ref: "#/components/headers/Retry-After" } } : {}) },
      content: {
        "application/json": {
          schema: { $ref: "#/components/schemas/ApiError" },
          examples: Object.fromEntries(shown.map((c) => [c.code, { summary: c.description, value: errorExample(c, facts, appUrl) }])),
        },
      },
    };
  }
  op.responses = responses;
}

/** The catalog codes an operation can answer: the platform's where they occur, plus `meta.errors`. */
export function operationErrors(meta: Meta, f: Facts): ErrorCodeDoc[] {
  return ERROR_CODES.filter((c) => meta.errors?.includes(c.code) || c.where.some((where) => applies(where, f)));
}

function applies(where: ErrorWhere, f: Facts): boolean {
  switch (where) {
    case "api":
      return true;
    case "api-input":
      return f.hasInput;
    case "api-body":
      return f.hasBody;
    case "api-path":
      return f.pathParams.length > 0;
    case "api-scope":
      return f.scope !== undefined;
    case "api-idempotent":
      return f.idempotent;
    case "api-list":
      return f.isList;
    default:
      return false;
  }
}

function errorExample(code: ErrorCodeDoc, f: Facts, appUrl: string) {
  const type = code.type;
  const param = (type === "not_found" ? f.pathParams[0] : f.firstParam) ?? null;
  const fill = (text: string) =>
    text
      .replaceAll("{scope}", f.scope ?? "messages:send")
      .replaceAll("{param}", param ?? "id")
      .replaceAll("{resource}", resourceName(f.path));
  return {
    error: {
      type,
      code: code.code,
      message: fill(code.message),
      param: code.param === "{param}" ? param : (code.param ?? null),
      doc_url: errorDocUrl(appUrl, code.code),
    },
  };
}

/** `/messages/{id}` → `message`, `/flows/{flow_id}/enroll` → `flow`: what a 404 is about. */
function resourceName(path: string): string {
  const segments = path.split("/").filter(Boolean);
  const named = segments.find((s, i) => !s.startsWith("{") && segments[i + 1]?.startsWith("{")) ?? segments.find((s) => !s.startsWith("{"));
  return named ? named.replace(/-/g, " ").replace(/s$/, "") : "resource";
}

function errorSchema(): Json {
  const types = Object.keys(ERROR_STATUS);
  return {
    type: "object",
    description: "Every error has this body and the HTTP status of its type. See the error reference at `/docs/errors`.",
    properties: {
      error: {
        type: "object",
        properties: {
          type: {
            type: "string",
            enum: types,
            description: ERROR_TYPES.map((t) => `\`${t.type}\` (${t.statuses.join(" or ")})`).join(", "),
          },
          code: {
            type: "string",
            enum: ERROR_CODES.filter((c) => c.where.some((w) => w.startsWith("api"))).map((c) => c.code),
            description:
              "A stable snake_case code, more specific than `type`. New codes may be added within `/v1`: treat unknown codes by their `type`.",
            example: "missing_scope",
          },
          message: { type: "string", description: "Human-readable; may change. Do not parse it." },
          param: {
            type: ["string", "null"],
            description: "The parameter at fault in dotted form (`to.phone`, `tags.0`, `Idempotency-Key`), or null when none is.",
            example: "to.phone",
          },
          doc_url: {
            type: "string",
            format: "uri",
            description: "`<origin>/docs/errors#code-<code>`: the documentation of the error code.",
          },
        },
        required: ["type", "code", "message", "doc_url"],
      },
    },
    required: ["error"],
  };
}

const integerHeader = (description: string, example: number) => ({ description, schema: { type: "integer", minimum: 0 }, example });

const HEADERS: Json = {
  "RateLimit-Limit": integerHeader("Requests allowed per rolling 60 seconds for this key: 120 unless the plan says otherwise.", 120),
  "RateLimit-Remaining": integerHeader("Requests left in the rolling window.", 117),
  "RateLimit-Reset": integerHeader("Whole seconds until the current 60-second window ends.", 42),
  "Retry-After": integerHeader("Whole seconds to wait before a request will be accepted again (429 only).", 12),
  "Request-Id": {
    description:
      "Identifies the request in the service's logs; quote it to support. A `Request-Id` request header of 8 to 128 letters, digits, `_`, `.`, `:` or `-` is echoed; otherwise one is generated.",
    schema: { type: "string" },
    example: "req_7Hq2mZ9xK3pL0aB4cD5e",
  },
  "Idempotent-Replayed": {
    description: "`true` when this is the stored response of an earlier request with the same `Idempotency-Key`.",
    schema: { type: "string", enum: ["true"] },
  },
  Link: {
    description: 'The next page, as `<url>; rel="next"`, when more items exist.',
    schema: { type: "string" },
    example: '<https://svc.example.com/api/v1/tags?limit=100&after=tag_0mwq18yo3jJFvnIzUvqf4q>; rel="next"',
  },
};

const COMMON_HEADERS = Object.fromEntries(
  ["RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset", "Request-Id"].map((h) => [h, { $ref: `#/components/headers/${h}` }]),
);

const IDEMPOTENCY_KEY = {
  name: "Idempotency-Key",
  in: "header",
  required: false,
  description:
    "A unique key per logical request (a UUID is a good choice), 1 to 255 characters. Kept 24 hours per workspace, key mode and endpoint.",
  schema: { type: "string", minLength: 1, maxLength: 255 },
  example: "5b0d9e3c-8f47-4f7e-9a39-2a1c6f0d4e11",
};

/** A media type's example, assembled from its schema when the schema names none itself. */
function addExample(media: Media, schemas: Record<string, Json>): void {
  if (media.example !== undefined || media.examples !== undefined || !media.schema) return;
  const own = media.schema.$ref ? schemas[String(media.schema.$ref).replace("#/components/schemas/", "")] : media.schema;
  if (Array.isArray(own?.examples) && own.examples.length > 1) {
    media.examples = Object.fromEntries(own.examples.map((value, i) => [exampleName(value, i), { value }]));
    return;
  }
  const example = exampleOf(media.schema, schemas, undefined, 0);
  if (example !== undefined) media.example = example;
}

/** `whatsapp`, `email`: a named example is called after its `channel` when it has one. */
const exampleName = (value: unknown, i: number) =>
  isObject(value) && typeof value.channel === "string" ? `${value.channel}${value.dry_run === true ? "_dry_run" : ""}` : `example-${i + 1}`;

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

function exampleOf(schema: unknown, schemas: Record<string, Json>, key: string | undefined, depth: number): unknown {
  if (!isObject(schema) || depth > 10) return undefined;
  if (typeof schema.$ref === "string") {
    return exampleOf(schemas[schema.$ref.replace("#/components/schemas/", "")], schemas, key, depth + 1);
  }
  if (schema.example !== undefined) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (schema.const !== undefined) return schema.const;
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  for (const combinator of ["anyOf", "oneOf"] as const) {
    const branches = schema[combinator];
    if (!Array.isArray(branches)) continue;
    for (const branch of branches) {
      if (isObject(branch) && branch.type === "null") continue;
      const value = exampleOf(branch, schemas, key, depth + 1);
      if (value !== undefined) return value;
    }
    return null;
  }
  if (Array.isArray(schema.allOf)) {
    return Object.assign({}, ...schema.allOf.map((s) => exampleOf(s, schemas, key, depth + 1)).filter(isObject));
  }
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
  switch (type) {
    case "object": {
      const out: Json = {};
      for (const [name, property] of Object.entries(isObject(schema.properties) ? schema.properties : {})) {
        const value = exampleOf(property, schemas, name, depth + 1);
        if (value !== undefined) out[name] = value;
      }
      return out;
    }
    case "array": {
      const item = exampleOf(schema.items, schemas, key, depth + 1);
      return item === undefined ? [] : [item];
    }
    case "string":
      return stringExample(schema, key);
    case "integer":
    case "number":
      return typeof schema.minimum === "number" ? schema.minimum : 1;
    case "boolean":
      return false;
    case "null":
      return null;
    default:
      return undefined;
  }
}

function stringExample(schema: Json, key: string | undefined): string {
  if (schema.format === "date-time" || key?.endsWith("_at")) return "2026-01-15T12:00:00.000Z";
  if (schema.format === "date") return "2026-01-15";
  if (schema.format === "email" || key === "email") return "ana@example.com";
  if (schema.format === "uri" || schema.format === "url" || key?.endsWith("url")) return "https://example.com/";
  if (key === "phone") return "+5511987654321";
  return "string";
}
