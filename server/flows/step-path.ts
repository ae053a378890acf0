import type { Condition, Step } from "./flow-schemas.ts";

// A run's position is the path of its next step in the version's step tree: `[2]` is the
// third top-level step, `[2, "then", 0]` the first step of that branch's `then` list.

export type Path = (number | "then" | "else")[];

export function stepAt(steps: Step[], path: Path): Step | undefined {
  let list: Step[] = steps;
  let step: Step | undefined;
  for (let i = 0; i < path.length; i += 2) {
    step = list[path[i] as number];
    if (!step) return undefined;
    const side = path[i + 1];
    if (side === undefined) return step;
    if (step.type !== "branch") return undefined;
    list = step[side as "then" | "else"];
  }
  return step;
}

/** The step after the one at `path`: its next sibling, else the step after its branch; null at the end. */
export function nextPath(steps: Step[], path: Path): Path | null {
  const siblings = path.length === 1 ? steps : listAt(steps, path.slice(0, -1));
  const index = path[path.length - 1] as number;
  if (siblings && index + 1 < siblings.length) return [...path.slice(0, -1), index + 1];
  if (path.length === 1) return null;
  return nextPath(steps, path.slice(0, -2));
}

/** Where a branch leads: the first step of the chosen list, or past the branch when it is empty. */
export function enterBranch(steps: Step[], path: Path, side: "then" | "else"): Path | null {
  const branch = stepAt(steps, path);
  if (branch?.type === "branch" && branch[side].length > 0) return [...path, side, 0];
  return nextPath(steps, path);
}

function listAt(steps: Step[], path: Path): Step[] | undefined {
  const branch = stepAt(steps, path.slice(0, -1));
  return branch?.type === "branch" ? branch[path[path.length - 1] as "then" | "else"] : undefined;
}

export type ConditionContact = {
  tags: string[];
  fields: Record<string, unknown>;
  opt_out_whatsapp: boolean;
  opt_out_email: boolean;
};

/** D37's branch conditions, on the contact as the run sees it now. */
export function holds(condition: Condition, contact: ConditionContact): boolean {
  if ("has_tag" in condition) return contact.tags.includes(condition.has_tag);
  if ("opted_out" in condition) return condition.opted_out === "whatsapp" ? contact.opt_out_whatsapp : contact.opt_out_email;
  const value = contact.fields[condition.field];
  if ("exists" in condition) return value !== undefined && value !== null;
  return value === condition.equals;
}
