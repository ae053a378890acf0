import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { forEachOpenApiProcedure, normalizePath } from "trpc-to-openapi";
import { describe, expect, it } from "vitest";
import { openApiDocument } from "../../server/api/openapi.ts";
import { appRouter } from "../../server/api/root.ts";
import { successStatuses, type Meta } from "../../server/api/trpc.ts";
import { ROOT } from "../support/server.ts";
import { Ajv2020 } from "ajv/dist/2020.js";
import { EVENT_NAMES } from "../../server/events/event-names.ts";
import { ZRecipient } from "../../server/messaging/message-schemas.ts";
import { codeStatus, ERROR_CODES, ERROR_TYPES } from "../../server/lib/error-catalog.ts";

// The OpenAPI document, in-process: a valid OpenAPI 3 document that states the platform rules
// (security, errors of D29, rate-limit headers of D24, scopes, idempotency, success statuses)
// on every operation, including operations added after this test was written.

type Json = Record<string, any>;

const APP_URL = "http://x";
const doc = openApiDocument(APP_URL) as Json;

const operations: { method: string; path: string; op: Json }[] = Object.entries(doc.paths as Json).flatMap(([path, item]) =>
  Object.entries(item as Json)
    .filter(([method]) => ["get", "post", "put", "patch", "delete"].includes(method))
    .map(([method, op]) => ({ method, path, op: op as Json })),
);

const metas = new Map<string, Meta>();
const inputs = new Map<string, { safeParse: (v: unknown) => { success: boolean; error?: unknown } }>();
forEachOpenApiProcedure(appRouter._def.procedures, ({ meta, procedure }) => {
  const m = meta as Meta;
  if (!m.openapi) return;
  const key = `${m.openapi.method.toLowerCase()} ${normalizePath(m.openapi.path)}`;
  metas.set(key, m);
  const input = (procedure as unknown as { _def: { inputs?: unknown[] } })._def.inputs?.[0];
  if (input) inputs.set(key, input as never);
});

/** Validates a value against a component of the document (JSON Schema 2020-12, as OpenAPI 3.1). */
const ajv = new Ajv2020({ strict: false, validateFormats: false });
ajv.addSchema({ $id: "doc", components: doc.components });
const validate = (component: string, value: unknown) => ajv.validate({ $ref: `doc#/components/schemas/${component}` }, value);

/** Follows a local `$ref` (`#/components/...`). */
function resolve(node: Json): Json {
  if (typeof node.$ref !== "string") return node;
  const target = (node.$ref as string)
    .replace(/^#\//, "")
    .split("/")
    .reduce<Json | undefined>((at, part) => at?.[part.replace(/~1/g, "/").replace(/~0/g, "~")], doc);
  if (!target) throw new Error(`unresolved $ref ${node.$ref}`);
  return resolve(target);
}

const STATUS_OF = Object.fromEntries(ERROR_TYPES.map((t) => [t.type, t.statuses]));

describe("OpenAPI document", () => {
  it("is a valid OpenAPI 3 document", async () => {
    expect(doc.openapi).toMatch(/^3\.\d+\.\d+$/);
    expect(doc.info).toMatchObject({ title: expect.any(String), version: "1.0.0" });
    expect(Object.keys(doc.paths).length).toBeGreaterThan(0);
    // Scalar's validator checks the document against the official OpenAPI JSON Schemas.
    const { validate } = await import("@scalar/openapi-parser");
    const result = await validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("points at the base URL of D9 and the docs", () => {
    expect(doc.servers).toEqual([expect.objectContaining({ url: "http://x/api/v1" })]);
    expect(doc.info.description).toContain("http://x/docs/errors");
    expect(doc.info.description).toContain("http://x/docs/getting-started");
  });

  it("resolves every $ref", () => {
    const refs: string[] = [];
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node && typeof node === "object") {
        for (const [k, v] of Object.entries(node))
          if (k === "$ref" && typeof v === "string") refs.push(v);
          else walk(v);
      }
    };
    walk(doc);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) expect(() => resolve({ $ref: ref }), ref).not.toThrow();
  });

  it("declares the bearer scheme and requires it globally and on every operation", () => {
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    expect(doc.security).toEqual([{ bearerAuth: [] }]);
    for (const { method, path, op } of operations) expect(op.security, `${method} ${path}`).toEqual([{ bearerAuth: [] }]);
  });

  it("has one shared ApiError schema of D29 (not `Error`, which shadows the global) and none of trpc-to-openapi's", () => {
    expect(doc.components.schemas.Error).toBeUndefined();
    const error = doc.components.schemas.ApiError;
    expect(error.required).toEqual(["error"]);
    expect(Object.keys(error.properties.error.properties).sort()).toEqual(["code", "doc_url", "message", "param", "type"]);
    expect(error.properties.error.properties.type.enum.sort()).toEqual(ERROR_TYPES.map((t) => t.type).sort());
    // D56: `code` is an enum of every code the public API answers.
    const apiCodes = ERROR_CODES.filter((c) => c.where.some((w) => w.startsWith("api"))).map((c) => c.code);
    expect(error.properties.error.properties.code.enum).toEqual(apiCodes);
    expect(Object.keys(doc.components.schemas).filter((name) => name.startsWith("error."))).toEqual([]);
  });

  it("documents the rate-limit and request-id headers", () => {
    for (const name of ["RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset", "Retry-After", "Request-Id"]) {
      expect(doc.components.headers[name]?.description, name).toEqual(expect.any(String));
    }
  });

  describe.each(operations)("$method $path", ({ method, path, op }) => {
    const meta = metas.get(`${method} ${path}`) ?? {};
    const responses = op.responses as Record<string, Json>;
    const statuses = Object.keys(responses).map(Number);
    const parameters = ((op.parameters ?? []) as Json[]).map(resolve);
    const hasInput = parameters.length > 0 || op.requestBody !== undefined || method === "post";

    it("is described and tagged", () => {
      expect(op.operationId).toEqual(expect.any(String));
      expect(op.summary).toEqual(expect.any(String));
      expect(op.tags?.length).toBeGreaterThan(0);
    });

    it("lists exactly the error statuses of its codes: the platform's and its declared ones (D56)", () => {
      expect(statuses).toEqual(expect.arrayContaining([401, 403, 429, 500]));
      if (hasInput) expect(statuses).toContain(400);
      if (parameters.some((p) => p.in === "path")) expect(statuses).toContain(404);
      if (meta.idempotent) expect(statuses).toEqual(expect.arrayContaining([409, 422]));
      const codes = statuses
        .filter((s) => s >= 400)
        .flatMap((s) => Object.keys(responses[String(s)]!.content["application/json"].examples).map((code) => ({ s, code })));
      for (const { s, code } of codes) expect(codeStatus(ERROR_CODES.find((c) => c.code === code)!), code).toBe(s);
      for (const declared of meta.errors ?? [])
        expect(
          codes.map((c) => c.code),
          declared,
        ).toContain(declared);
      // Nothing else: each listed status is answered by at least one of those codes.
      expect(new Set(codes.map((c) => c.s))).toEqual(new Set(statuses.filter((s) => s >= 400)));
    });

    it("lists every success status it can answer (the REST facade answers no other), each with an example", () => {
      const success = statuses.filter((s) => s < 300);
      // meta.successStatus; a dry run (D71) is answered 200 beside it, and meta.alsoAnswers names another case.
      expect(success).toEqual(successStatuses(meta).sort((a, b) => a - b));
      expect(success).toContain(meta.successStatus ?? 200);
      for (const status of success) {
        // JSON, or Server-Sent Events for the event stream (D77).
        const content = responses[String(status)]!.content;
        const media = content["application/json"] ?? content["text/event-stream"];
        expect(media.example ?? media.examples, "response example").toBeDefined();
      }
      if (op.requestBody) {
        for (const body of Object.values(op.requestBody.content as Record<string, Json>)) {
          expect(body.example ?? body.examples, "request example").toBeDefined();
        }
      }
    });

    it("uses the Error schema with an example per error response, consistent with the catalog", () => {
      for (const status of statuses.filter((s) => s >= 400)) {
        const media = responses[String(status)]!.content["application/json"];
        expect(media.schema).toEqual({ $ref: "#/components/schemas/ApiError" });
        const examples = Object.values(media.examples ?? {}) as Json[];
        expect(examples.length, `${status} examples`).toBeGreaterThan(0);
        for (const { value } of examples) {
          expect(Object.keys(value)).toEqual(["error"]);
          const { type, code, message, param, doc_url } = value.error;
          expect(STATUS_OF[type], `${status} ${code}`).toContain(status);
          expect(ERROR_CODES.find((c) => c.code === code)?.type, code).toBe(type);
          expect(message).toEqual(expect.any(String));
          expect(param === null || typeof param === "string").toBe(true);
          expect(doc_url).toBe(`${APP_URL}/docs/errors#code-${code}`);
        }
      }
    });

    it("carries the rate-limit headers and Request-Id on every response, Retry-After on 429", () => {
      for (const [status, response] of Object.entries(responses)) {
        const headers = Object.keys(response.headers ?? {});
        expect(headers, status).toEqual(
          expect.arrayContaining(["RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset", "Request-Id"]),
        );
        if (status === "429") expect(headers).toContain("Retry-After");
      }
    });

    it("states its scope (meta.scope)", () => {
      if (meta.scope) {
        expect(op["x-required-scope"]).toBe(meta.scope);
        expect(op.description).toContain(`\`${meta.scope}\``);
        const forbidden = Object.values(responses["403"]!.content["application/json"].examples) as Json[];
        expect(forbidden.map((e) => e.value.error.message).join(" ")).toContain(meta.scope);
      } else {
        expect(op["x-required-scope"]).toBeUndefined();
        expect(op.description).toContain("any valid key");
      }
    });

    it("documents Idempotency-Key exactly where it applies (meta.idempotent)", () => {
      const header = parameters.find((p) => p.in === "header" && p.name === "Idempotency-Key");
      if (meta.idempotent) {
        expect(header).toMatchObject({ required: false, schema: { type: "string" } });
        const success = responses[String(meta.successStatus ?? 200)]!;
        expect(Object.keys(success.headers)).toContain("Idempotent-Replayed");
        const codes = (s: number) => Object.keys(responses[String(s)]!.content["application/json"].examples);
        expect(codes(409)).toContain("idempotency_key_in_use");
        expect(codes(422)).toContain("idempotency_key_reused");
      } else {
        expect(header).toBeUndefined();
      }
    });
  });

  it("lists POST /suppressions' 200 (the address already suppressed) beside its 201 (D85)", () => {
    const responses = doc.paths["/suppressions"].post.responses as Record<string, Json>;
    expect(Object.keys(responses).filter((s) => s.startsWith("2"))).toEqual(["200", "201"]);
    expect(responses["200"]!.content["application/json"].schema).toEqual(responses["201"]!.content["application/json"].schema);
    expect(responses["200"]!.description).toMatch(/already suppressed/);
  });

  it("lists a 404 on POST /messages (unknown to.contact_id or channel_id) and a 409 on no GET (D56)", () => {
    expect(Object.keys(doc.paths["/messages"].post.responses)).toContain("404");
    for (const { method, path, op } of operations.filter((o) => o.method === "get")) {
      expect(Object.keys(op.responses), `${method} ${path}`).not.toContain("409");
    }
    expect(Object.keys(doc.paths["/"].get.responses)).toEqual(["200", "401", "403", "429", "500", "503"]);
  });

  it("describes the recipient as a oneOf that refuses none or several addresses, as the server does (D5, D56)", () => {
    expect(doc.components.schemas.Recipient.oneOf).toHaveLength(4);
    for (const [value, ok] of [
      [{ phone: "+5511987654321" }, true],
      [{ whatsapp_user_id: "US.13491208655302741918" }, true], // D88
      [{ whatsapp_user_id: "US.13491208655302741918", phone: "+5511987654321" }, false],
      [{ email: "ana@example.com", name: "Ana" }, true],
      [{ contact_id: "ct_1" }, true],
      [{}, false],
      [{ name: "Ana" }, false],
      [{ phone: "+5511987654321", email: "ana@example.com" }, false],
      [{ phone: "+5511987654321", email: "ana@example.com", contact_id: "ct_1" }, false],
    ] as const) {
      expect(validate("Recipient", value), JSON.stringify(value)).toBe(ok);
      expect(ZRecipient.safeParse(value).success, `zod ${JSON.stringify(value)}`).toBe(ok);
    }
  });

  it("discriminates the message payload by channel (D16, D56)", () => {
    const send = doc.components.schemas.SendMessageRequest;
    expect(send.discriminator).toEqual({
      propertyName: "channel",
      mapping: {
        whatsapp: "#/components/schemas/SendWhatsAppMessageRequest",
        email: "#/components/schemas/SendEmailMessageRequest",
        sms: "#/components/schemas/SendSmsMessageRequest",
      },
    });
    const to = { phone: "+5511987654321" };
    expect(validate("SendMessageRequest", { channel: "whatsapp", to, whatsapp: { body: "Hi" } })).toBe(true);
    expect(validate("SendMessageRequest", { channel: "whatsapp", to, email: { html: "<p>Hi</p>" } })).toBe(false);
    expect(validate("SendMessageRequest", { channel: "email", to: { email: "a@example.com" }, email: { subject: "Hi" } })).toBe(false);
    expect(validate("SendMessageRequest", { channel: "whatsapp", to, whatsapp: { media_url: "https://example.com/a.png" } })).toBe(false);
    expect(validate("SendMessageRequest", { channel: "sms", to, sms: { body: "Your code is 123456" } })).toBe(true);
    expect(validate("SendMessageRequest", { channel: "sms", to, whatsapp: { body: "Hi" } })).toBe(false);
  });

  it("names every request body, and each example fits both the document and the server's schema (D56)", () => {
    for (const { method, path, op } of operations.filter((o) => o.op.requestBody)) {
      const media = op.requestBody.content["application/json"];
      const ref = media.schema.$ref as string;
      expect(ref, `${method} ${path}`).toMatch(/^#\/components\/schemas\/[A-Z]\w+Request$/);
      const examples = media.examples ? Object.values(media.examples as Json).map((e) => e.value) : [media.example];
      for (const example of examples) {
        expect(validate(ref.split("/").pop()!, example), `${method} ${path} ${JSON.stringify(example)}: ${ajv.errorsText()}`).toBe(true);
        const pathParams = Object.fromEntries((op.parameters ?? []).filter((p: Json) => p.in === "path").map((p: Json) => [p.name, "x"]));
        const parsed = inputs.get(`${method} ${path}`)!.safeParse({ ...example, ...pathParams });
        expect(parsed.success, `${method} ${path}: ${String(parsed.error)}`).toBe(true);
      }
    }
  });

  it("marks every timestamp `date-time` and types custom-field values (D56)", () => {
    const found: string[] = [];
    const walk = (node: unknown, at: string): void => {
      if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${at}/${i}`));
      if (!node || typeof node !== "object") return;
      for (const [name, property] of Object.entries((node as Json).properties ?? {})) {
        if (name.endsWith("_at")) {
          found.push(name);
          expect((property as Json).format, `${at}/${name}`).toBe("date-time");
        }
      }
      for (const [k, v] of Object.entries(node)) walk(v, `${at}/${k}`);
    };
    walk(doc, "#");
    expect(found).toEqual(expect.arrayContaining(["created_at", "updated_at", "sent_at", "delivered_at", "read_at"]));
    expect(doc.components.schemas.Contact.properties.fields.additionalProperties).toEqual({
      description: expect.any(String),
      type: ["string", "number", "boolean"],
    });
  });

  it("describes every event's body under `webhooks`, in English (D31, D56)", () => {
    expect(Object.keys(doc.webhooks).sort()).toEqual([...EVENT_NAMES].sort());
    for (const name of EVENT_NAMES) {
      const post = doc.webhooks[name].post;
      expect(post.description).toMatch(/^[A-Z]/);
      const schema = resolve(post.requestBody.content["application/json"].schema);
      expect(schema.properties.event.const).toBe(name);
      expect(schema.required).toEqual(expect.arrayContaining(["id", "event", "timestamp", "namespace", "mode", "data"]));
    }
  });

  it("carries no internal decision numbers in its text (D56)", () => {
    expect(JSON.stringify(doc).match(/\(D\d+|\bD\d{1,2}\b(?!\w)/g)).toBeNull();
    const catalog = JSON.stringify([ERROR_TYPES, ERROR_CODES]);
    expect(catalog.match(/\bD\d{1,2}\b/g), "error catalog (shown at /docs/errors)").toBeNull();
  });

  it("keeps decision numbers out of every string of app/ and server/ (docs pages, dashboard, messages), in comments only", () => {
    const leaks: string[] = [];
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) {
          if (entry.name !== "generated" && entry.name !== "node_modules") walk(path);
        } else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith(".test.ts")) {
          readFileSync(path, "utf8")
            .split("\n")
            .forEach((line, i) => {
              const code = line.trim();
              if (/^(\/\/|\*|\/\*|\{\/\*)/.test(code)) return;
              if (/\(D\d+|\bD\d{1,2}\b(?![\w'])/.test(code.split(" // ")[0]!)) leaks.push(`${path}:${i + 1}: ${code}`);
            });
        }
      }
    };
    for (const dir of ["app", "server"]) walk(join(ROOT, dir));
    expect(leaks).toEqual([]);
  });

  it("keeps decision numbers out of the published client package, comments included (they ship in its .d.ts)", () => {
    const dir = join(ROOT, "packages/client");
    const files = [
      "README.md",
      ...readdirSync(join(dir, "src"))
        .filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts"))
        .map((name) => `src/${name}`),
    ];
    const leaks = files.flatMap((file) =>
      readFileSync(join(dir, file), "utf8")
        .split("\n")
        .flatMap((line, i) => (/\(D\d+|\bD\d{1,2}\b(?![\w'])/.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(leaks).toEqual([]);
  });

  it("documents the key check (GET /) with no scope", () => {
    const op = doc.paths["/"].get;
    expect(op.responses["200"].content["application/json"].schema).toEqual({ $ref: "#/components/schemas/KeyCheck" });
    expect(op.responses["200"].content["application/json"].example).toMatchObject({ ok: true, version: "1.0.0" });
  });

  it("is cached per origin", () => {
    expect(openApiDocument(APP_URL)).toBe(doc);
    const other = openApiDocument("https://api.example.com") as Json;
    expect(other.servers[0].url).toBe("https://api.example.com/api/v1");
  });
});
