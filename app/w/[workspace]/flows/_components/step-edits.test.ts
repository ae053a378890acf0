import { describe, expect, it } from "vitest";
import type { Step } from "@/server/flows/flow-schemas.ts";
import { insertStep, moveStep, removeStep, replaceStep } from "./step-edits.ts";

const a: Step = { type: "tag", add: ["a"] };
const b: Step = { type: "tag", add: ["b"] };
const exit: Step = { type: "exit" };

describe("the editor's changes to a step tree", () => {
  it("inserts, replaces, moves and removes at the top level", () => {
    expect(insertStep([a], [], 0, b)).toEqual([b, a]);
    expect(insertStep([a], [], 1, b)).toEqual([a, b]);
    expect(replaceStep([a, b], [1], exit)).toEqual([a, exit]);
    expect(moveStep([a, b], [1], -1)).toEqual([b, a]);
    expect(moveStep([a, b], [1], 1)).toEqual([a, b]);
    expect(removeStep([a, b], [0])).toEqual([b]);
  });

  it("reaches into a branch's path and a split's path, leaving the rest of the tree untouched", () => {
    const branch: Step = { type: "branch", if: { has_tag: "a" }, then: [], else: [a] };
    const splitStep: Step = {
      type: "split",
      paths: [
        { weight: 30, steps: [] },
        { weight: 70, steps: [branch] },
      ],
    };
    const steps = [a, splitStep];
    const added = insertStep(steps, [1, "paths.1.steps", 0, "then"], 0, b);
    expect(added[1]).toEqual({
      type: "split",
      paths: [
        { weight: 30, steps: [] },
        { weight: 70, steps: [{ ...branch, then: [b] }] },
      ],
    });
    expect(steps[1]).toBe(splitStep);
    expect(removeStep(added, [1, "paths.1.steps", 0, "else", 0])[1]).toMatchObject({ paths: [{}, { steps: [{ then: [b], else: [] }] }] });
    expect(replaceStep([branch], [0, "else", 0], exit)).toEqual([{ ...branch, else: [exit] }]);
  });
});
