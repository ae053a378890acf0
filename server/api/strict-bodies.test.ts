import { forEachOpenApiProcedure } from "trpc-to-openapi";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { appRouter } from "./root.ts";
import type { Meta } from "./trpc.ts";

// D58: an unknown body parameter is refused (`unknown_parameter`), never dropped. That holds
// when every object of every public request body is strict, so this walks the input schema
// of every public operation with a body and lists the objects that would strip unknown keys.

type Def = { type: string; [key: string]: unknown };
const defOf = (schema: unknown) => (schema as { _zod?: { def?: Def } } | undefined)?._zod?.def;

function looseObjects(schema: unknown, path: string, seen = new Set<unknown>()): string[] {
  const def = defOf(schema);
  if (!def || seen.has(schema)) return [];
  seen.add(schema);
  const inner = (s: unknown, p = path) => looseObjects(s, p, seen);
  switch (def.type) {
    case "object": {
      const catchall = defOf(def.catchall);
      const own = catchall?.type === "never" ? [] : [path || "(body)"];
      return [...own, ...Object.entries(def.shape as Record<string, unknown>).flatMap(([k, v]) => inner(v, path ? `${path}.${k}` : k))];
    }
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
    case "readonly":
    case "catch":
      return inner(def.innerType);
    case "pipe":
      return [...inner(def.in), ...inner(def.out)];
    case "array":
      return inner(def.element, `${path}.0`);
    case "record":
      return inner(def.valueType, `${path}.*`);
    case "union":
      return (def.options as unknown[]).flatMap((o) => inner(o));
    case "intersection":
      return [...inner(def.left), ...inner(def.right)];
    default:
      return [];
  }
}

describe("public request bodies (D58)", () => {
  const bodies: { operation: string; loose: string[] }[] = [];
  forEachOpenApiProcedure(appRouter._def.procedures, ({ meta, procedure }) => {
    const m = meta as Meta;
    if (!m.openapi || m.openapi.method === "GET") return;
    const input = (procedure as { _def: { inputs: unknown[] } })._def.inputs[0];
    bodies.push({ operation: `${m.openapi.method} ${m.openapi.path}`, loose: looseObjects(input, "") });
  });

  it("finds the public operations with a body", () => {
    expect(bodies.map((b) => b.operation)).toEqual(
      expect.arrayContaining(["POST /messages", "POST /contacts", "POST /tags", "POST /custom-fields", "POST /flows/{flow_id}/enroll"]),
    );
  });

  it("sees a loose object, also nested (the walk itself works)", () => {
    expect(looseObjects(z.strictObject({ a: z.object({ b: z.string() }).optional(), c: z.array(z.strictObject({})) }), "")).toEqual(["a"]);
  });

  it("has only strict objects in every public body", () => {
    expect(bodies.filter((b) => b.loose.length > 0)).toEqual([]);
  });
});
