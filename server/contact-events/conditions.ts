import { z } from "zod";

// What flows ask of a contact event's properties: a value at a dotted path, and the conditions
// of a trigger's `where` (D62, D84). A `match` (D63, D64) is compared as text in SQL, where the
// events are read (server/flows/run-waits.ts `findEvent`).

/** D61: an event's name. */
export const EVENT_NAME = /^[a-z][a-z0-9_.]{0,63}$/;
export const ZEventName = z
  .string()
  .regex(EVENT_NAME, "must start with a lowercase letter and hold only a-z, 0-9, _ and . (at most 64 characters)");

/** A dotted path into properties: `plan`, `items.0.name` (array elements by index). */
export const ZPropertyPath = z
  .string()
  .max(200)
  .regex(/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/, "must be a dotted path such as items.0.name");

export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/** The value at a dotted path; undefined when any part is missing. */
export function valueAt(properties: unknown, path: string): Json | undefined {
  let value: unknown = properties;
  for (const part of path.split(".")) {
    if (Array.isArray(value)) value = /^\d+$/.test(part) ? value[Number(part)] : undefined;
    else if (value !== null && typeof value === "object")
      value = Object.hasOwn(value, part) ? (value as Record<string, unknown>)[part] : undefined;
    else return undefined;
    if (value === undefined) return undefined;
  }
  return value as Json;
}

/** Every scalar of the properties under its dotted path, prefixed (`event.items.0.name`), for placeholders. */
export function flatten(properties: unknown, prefix: string): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  const visit = (value: unknown, path: string) => {
    if (value === null || value === undefined) return;
    if (Array.isArray(value)) value.forEach((v, i) => visit(v, `${path}.${i}`));
    else if (typeof value === "object") for (const [k, v] of Object.entries(value)) visit(v, `${path}.${k}`);
    else out[path] = value as string | number | boolean;
  };
  visit(properties, prefix);
  return out;
}

const OPERATORS = ["equals", "not_equals", "gt", "gte", "lt", "lte", "exists", "contains"] as const;
type Operator = (typeof OPERATORS)[number];

const ZScalar = z.union([z.string().max(1_000), z.number(), z.boolean(), z.null()]);
const OPERAND: Record<Operator, z.ZodType> = {
  equals: ZScalar,
  not_equals: ZScalar,
  gt: z.union([z.number(), z.string().max(1_000)]),
  gte: z.union([z.number(), z.string().max(1_000)]),
  lt: z.union([z.number(), z.string().max(1_000)]),
  lte: z.union([z.number(), z.string().max(1_000)]),
  exists: z.boolean(),
  contains: z.union([z.string().max(1_000), z.number(), z.boolean()]),
};

export type PropertyCondition = { property: string } & Partial<Record<Operator, Json>>;
export type EventCondition = PropertyCondition | { all: EventCondition[] } | { any: EventCondition[] };

/** `all` and `any` nest up to 3 levels (D84). */
const MAX_GROUP_DEPTH = 3;

/**
 * A trigger's `where`: one condition `{ property, <operator>: value }` or `all`/`any` of them.
 * Each fault's path points at it (`trigger.where.any.1.gt`, an unknown operator by its name).
 */
export const ZEventCondition: z.ZodType<EventCondition> = z.unknown().superRefine((input, ctx) => {
  const check = (value: unknown, path: (string | number)[], depth: number): void => {
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      ctx.addIssue({ code: "custom", path, message: "must be a condition object: { property, <operator>: value }, or all / any" });
      return;
    }
    const entries = Object.entries(value);
    const group = entries.find(([k]) => k === "all" || k === "any");
    if (group) {
      if (entries.length !== 1) {
        ctx.addIssue({ code: "custom", path, message: "an all or any group holds only its list of conditions" });
        return;
      }
      const [name, list] = group;
      if (depth >= MAX_GROUP_DEPTH) {
        ctx.addIssue({ code: "custom", path: [...path, name], message: `all and any nest at most ${MAX_GROUP_DEPTH} levels` });
        return;
      }
      if (!Array.isArray(list) || list.length < 1 || list.length > 20) {
        ctx.addIssue({ code: "custom", path: [...path, name], message: "must be a list of 1 to 20 conditions" });
        return;
      }
      list.forEach((c, i) => check(c, [...path, name, i], depth + 1));
      return;
    }
    const record = value as Record<string, unknown>;
    const property = ZPropertyPath.safeParse(record.property);
    if (!property.success) {
      ctx.addIssue({
        code: "custom",
        path: [...path, "property"],
        message: record.property === undefined ? "is required" : property.error.issues[0]!.message,
      });
      return;
    }
    const ops = entries.filter(([k]) => k !== "property");
    const unknown = ops.find(([k]) => !(OPERATORS as readonly string[]).includes(k));
    if (unknown) {
      ctx.addIssue({ code: "custom", path: [...path, unknown[0]], message: `is not an operator; use one of ${OPERATORS.join(", ")}` });
      return;
    }
    if (ops.length !== 1) {
      ctx.addIssue({ code: "custom", path, message: `give exactly one operator: ${OPERATORS.join(", ")}` });
      return;
    }
    const [op, operand] = ops[0]!;
    const parsed = OPERAND[op as Operator].safeParse(operand);
    if (!parsed.success) ctx.addIssue({ code: "custom", path: [...path, op], message: `is not a valid value for ${op}` });
  };
  check(input, [], 0);
}) as unknown as z.ZodType<EventCondition>;

/** Whether the properties satisfy the condition (D62, D84). */
export function satisfies(condition: EventCondition, properties: unknown): boolean {
  if ("all" in condition) return condition.all.every((c) => satisfies(c, properties));
  if ("any" in condition) return condition.any.some((c) => satisfies(c, properties));
  const value = valueAt(properties, condition.property);
  const [op, operand] = Object.entries(condition).find(([k]) => k !== "property")! as [Operator, Json];
  switch (op) {
    case "exists":
      return (value !== undefined && value !== null) === operand;
    case "equals":
      return value !== undefined && equal(value, operand);
    case "not_equals":
      return value === undefined || !equal(value, operand);
    case "contains":
      if (Array.isArray(value)) return value.some((v) => equal(v, operand));
      return typeof value === "string" && value.includes(String(operand));
    default:
      return ordered(op, value, operand);
  }
}

/** Scalars by value; an object or array never equals an operand (operands are scalars). */
function equal(a: Json, b: Json): boolean {
  return a === b;
}

function ordered(op: "gt" | "gte" | "lt" | "lte", value: Json | undefined, operand: Json): boolean {
  // Numbers with numbers, texts with texts (ISO timestamps order as text); anything else never holds.
  if (typeof value !== typeof operand || (typeof value !== "number" && typeof value !== "string")) return false;
  const a = value as number | string;
  const b = operand as number | string;
  if (op === "gt") return a > b;
  if (op === "gte") return a >= b;
  if (op === "lt") return a < b;
  return a <= b;
}
