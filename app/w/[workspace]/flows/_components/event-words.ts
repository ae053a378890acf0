import type { EventCondition, Json, PropertyCondition } from "@/server/contact-events/conditions.ts";

// What a flow asks of contact events, in words: a trigger's `where` (D62) and a `match` of a
// wait_for step or a goal (D63, D64). The flow's page, the editor and a run's history say them.

/** A condition's operand as the sentence shows it: texts quoted, numbers and booleans as they are. */
export const operandWords = (value: Json | undefined): string => (typeof value === "string" ? `“${value}”` : JSON.stringify(value ?? null));

const OPERATOR_WORDS: Record<string, string> = {
  equals: "is",
  not_equals: "is not",
  gt: "is greater than",
  gte: "is at least",
  lt: "is less than",
  lte: "is at most",
  contains: "contains",
};

/** The operator of a property condition (the one key besides `property`). */
export function operatorOf(condition: PropertyCondition): string | undefined {
  return Object.keys(condition).find((k) => k !== "property");
}

function propertyWords(condition: PropertyCondition): string {
  const op = operatorOf(condition);
  if (!op) return `${condition.property} (no operator)`;
  const operand = condition[op as keyof PropertyCondition] as Json;
  if (op === "exists") return operand === false ? `${condition.property} is missing` : `${condition.property} is present`;
  return `${condition.property} ${OPERATOR_WORDS[op] ?? op} ${operandWords(operand)}`;
}

/** A trigger's `where` in words: "total is at least 100 and (plan is “pro” or coupon is present)". */
export function conditionWords(condition: EventCondition, nested = false): string {
  if ("all" in condition || "any" in condition) {
    const [list, joiner] = "all" in condition ? [condition.all, " and "] : [condition.any, " or "];
    const text = list.map((c) => conditionWords(c, true)).join(joiner);
    return nested && list.length > 1 ? `(${text})` : text;
  }
  return propertyWords(condition);
}

/**
 * A `match` in words: "order_id is “{{run.key}}”". With the run's key, `{{run.key}}` is shown
 * as the text the run compared ("order_id is “c1”").
 */
export function matchWords(match: Record<string, string> | undefined, runKey: string | null = null): string {
  return Object.entries(match ?? {})
    .map(([path, text]) => `${path} is “${runKey === null ? text : text.replaceAll("{{run.key}}", runKey)}”`)
    .join(" and ");
}
