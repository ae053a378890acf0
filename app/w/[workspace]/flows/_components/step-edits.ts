import type { Step } from "@/server/flows/flow-schemas.ts";
import { withList, type Path, type StepList } from "@/server/flows/step-path.ts";
import { pathsOf } from "./flow-layout.ts";

// The editor's changes to a document's step tree, by position (`[2, "then", 0]` is the first
// step of the third step's `then` path; a list is a position ending in its side, `[2, "then"]`,
// or `[]` for the flow's own steps). Each returns new arrays and leaves the old tree as it was.

/** The steps with the list at `list` changed by `change`. */
export function editList(steps: Step[], list: Path, change: (list: Step[]) => Step[]): Step[] {
  if (list.length === 0) return change(steps);
  const [index, side, ...rest] = list as [number, StepList, ...Path];
  return steps.map((step, i) => {
    if (i !== index) return step;
    const inner = pathsOf(step).find((p) => p.side === side)?.steps;
    return inner ? withList(step, side, editList(inner, rest, change)) : step;
  });
}

const split = (position: Path) => ({ list: position.slice(0, -1), index: position[position.length - 1] as number });

export function insertStep(steps: Step[], list: Path, index: number, step: Step): Step[] {
  return editList(steps, list, (l) => [...l.slice(0, index), step, ...l.slice(index)]);
}

export function replaceStep(steps: Step[], position: Path, step: Step): Step[] {
  const { list, index } = split(position);
  return editList(steps, list, (l) => l.map((s, i) => (i === index ? step : s)));
}

export function removeStep(steps: Step[], position: Path): Step[] {
  const { list, index } = split(position);
  return editList(steps, list, (l) => l.filter((_, i) => i !== index));
}

/** Moves the step one place up (-1) or down (1) in its list. */
export function moveStep(steps: Step[], position: Path, by: -1 | 1): Step[] {
  const { list, index } = split(position);
  return editList(steps, list, (l) => {
    if (index + by < 0 || index + by >= l.length) return l;
    const next = [...l];
    next.splice(index + by, 0, ...next.splice(index, 1));
    return next;
  });
}
