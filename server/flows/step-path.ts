import { randomBytes } from "node:crypto";
import type { OptOutColumn } from "../contacts/contact-schemas.ts";
import type { Condition, Step } from "./flow-schemas.ts";
import { channelOf } from "../channels/registry.ts";

// A run's position is the path of its next step in the version's step tree: `[2]` is the
// third top-level step, `[2, "then", 0]` the first step of that branch's `then` list,
// `[3, "on_timeout", 1]` the second step of a `wait_for`'s timeout path.

// A split's paths (D68) are the lists `paths.<i>.steps`, so a position reads as the
// document's own path: `[2, "paths.1.steps", 0]` is `steps.2.paths.1.steps.0`. These names
// belong to positions only: in the document the list is `paths[i].steps` (`listOf`, `withList`).
export const SPLIT_PATHS = ["paths.0.steps", "paths.1.steps", "paths.2.steps", "paths.3.steps", "paths.4.steps"] as const;
export const STEP_LISTS = ["then", "else", "on_event", "on_timeout", ...SPLIT_PATHS] as const;
export type StepList = (typeof STEP_LISTS)[number];
export type Path = (number | StepList)[];

/** The step list `side` of `step`, if it has one. */
function listOf(step: Step | undefined, side: StepList): Step[] | undefined {
  if (step?.type === "branch" && (side === "then" || side === "else")) return step[side];
  if (step?.type === "wait_for" && (side === "on_event" || side === "on_timeout")) return step[side];
  if (step?.type === "split") return step.paths[(SPLIT_PATHS as readonly string[]).indexOf(side)]?.steps;
  return undefined;
}

/** `step` with its list `side` replaced by `list`, where the document holds it (a split's path keeps its weight). */
export function withList(step: Step, side: StepList, list: Step[]): Step {
  if (step.type !== "split") return { ...step, [side]: list } as Step;
  const index = (SPLIT_PATHS as readonly string[]).indexOf(side);
  return { ...step, paths: step.paths.map((p, i) => (i === index ? { ...p, steps: list } : p)) };
}

export function stepAt(steps: Step[], path: Path): Step | undefined {
  let list: Step[] | undefined = steps;
  let step: Step | undefined;
  for (let i = 0; i < path.length; i += 2) {
    step = list[path[i] as number];
    if (!step) return undefined;
    const side = path[i + 1];
    if (side === undefined) return step;
    list = listOf(step, side as StepList);
    if (!list) return undefined;
  }
  return step;
}

/** The step after the one at `path`: its next sibling, else the step after its enclosing step; null at the end. */
export function nextPath(steps: Step[], path: Path): Path | null {
  const siblings = path.length === 1 ? steps : listOf(stepAt(steps, path.slice(0, -2)), path[path.length - 2] as StepList);
  const index = path[path.length - 1] as number;
  if (siblings && index + 1 < siblings.length) return [...path.slice(0, -1), index + 1];
  if (path.length === 1) return null;
  return nextPath(steps, path.slice(0, -2));
}

/** Where a branch or a wait_for's path leads: the first step of the chosen list, or past the step when it is empty. */
export function enterList(steps: Step[], path: Path, side: StepList): Path | null {
  if ((listOf(stepAt(steps, path), side)?.length ?? 0) > 0) return [...path, side, 0];
  return nextPath(steps, path);
}

/** A position as the document's dotted path (`steps.2.then.0`), as errors and the Run name steps (D82). */
export function stepParam(path: Path): string {
  return ["steps", ...path].join(".");
}

export type ConditionContact = { tags: string[]; fields: Record<string, unknown> } & Record<OptOutColumn, boolean>;

/** D37's branch conditions, on the contact as the run sees it now. */
export function holds(condition: Condition, contact: ConditionContact): boolean {
  if ("has_tag" in condition) return contact.tags.includes(condition.has_tag);
  if ("opted_out" in condition) return channelOf(condition.opted_out).optedOut(contact);
  const value = contact.fields[condition.field];
  if ("exists" in condition) return value !== undefined && value !== null;
  return value === condition.equals;
}

/** Calls `visit` for every step of the tree, depth first in document order, with its path. */
export function eachStep(steps: Step[], visit: (step: Step, path: Path) => void, base: Path = []): void {
  steps.forEach((step, i) => {
    const path: Path = [...base, i];
    visit(step, path);
    for (const side of STEP_LISTS) {
      const list = listOf(step, side);
      if (list) eachStep(list, visit, [...path, side]);
    }
  });
}

/** D70: a step's id; a version saved before steps had ids names its steps by their paths. */
export function stepId(step: Step, path: Path): string {
  return step.id ?? stepParam(path);
}

const randomId = () => `st_${randomBytes(6).toString("base64url")}`;

/** D70: the document's steps with an id on every step (`newId`, random by default, where it has none). */
export function withStepIds(steps: Step[], newId: (step: Step, path: Path) => string = randomId): Step[] {
  const assign = (list: Step[], base: Path): Step[] =>
    list.map((step, i) => {
      let copy = { ...step, id: step.id ?? newId(step, [...base, i]) } as Step;
      for (const side of STEP_LISTS) {
        const inner = listOf(copy, side);
        if (inner) copy = withList(copy, side, assign(inner, [...base, i, side]));
      }
      return copy;
    });
  return assign(steps, []);
}

/** Every step's path by its id (`stepId`). */
export function pathsById(steps: Step[]): Map<string, Path> {
  const paths = new Map<string, Path>();
  eachStep(steps, (step, path) => paths.set(stepId(step, path), path));
  return paths;
}
