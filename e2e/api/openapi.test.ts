import { forEachOpenApiProcedure, normalizePath } from "trpc-to-openapi";
import { describe, expect, it } from "vitest";
import { openApiDocument } from "../../server/api/openapi.ts";
import { appRouter } from "../../server/api/root.ts";
import type { Meta } from "../../server/api/trpc.ts";
import { ERROR_CODES, ERROR_TYPES } from "../../server/lib/error-catalog.ts";

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
forEachOpenApiProcedure(appRouter._def.procedures, ({ meta }) => {
  const m = meta as Meta;
  if (m.openapi) metas.set(`${m.openapi.method.toLowerCase()} ${normalizePath(m.openapi.path)}`, m);
});

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

  it("has one shared Error schema of D29 and none of trpc-to-openapi's error shapes", () => {
    const error = doc.components.schemas.Error;
    expect(error.required).toEqual(["error"]);
    expect(Object.keys(error.properties.error.properties).sort()).toEqual(["code", "doc_url", "message", "param", "type"]);
    expect(error.properties.error.properties.type.enum.sort()).toEqual(ERROR_TYPES.map((t) => t.type).sort());
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

    it("lists its error responses", () => {
      expect(statuses).toEqual(expect.arrayContaining([401, 403, 429, 500]));
      if (hasInput) expect(statuses).toContain(400);
      if (parameters.some((p) => p.in === "path")) expect(statuses).toContain(404);
      if (meta.idempotent) expect(statuses).toEqual(expect.arrayContaining([409, 422]));
    });

    it("answers its success status (meta.successStatus) with an example", () => {
      const success = statuses.filter((s) => s < 300);
      expect(success).toEqual([meta.successStatus ?? 200]);
      const media = responses[String(success[0])]!.content["application/json"];
      expect(media.example ?? media.examples, "response example").toBeDefined();
      if (op.requestBody) {
        for (const body of Object.values(op.requestBody.content as Record<string, Json>)) {
          expect(body.example ?? body.examples, "request example").toBeDefined();
        }
      }
    });

    it("uses the Error schema with an example per error response, consistent with the catalog", () => {
      for (const status of statuses.filter((s) => s >= 400)) {
        const media = responses[String(status)]!.content["application/json"];
        expect(media.schema).toEqual({ $ref: "#/components/schemas/Error" });
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
