import { describe, expect, it } from "vitest";
import type { Step } from "./flow-schemas.ts";
import { enterList, holds, nextPath, pathsById, stepAt, stepId, withStepIds } from "./step-path.ts";

const steps: Step[] = [
  { type: "tag", add: ["tag_a"] },
  {
    type: "branch",
    if: { has_tag: "tag_vip" },
    then: [{ type: "wait", duration: "PT1H" }, { type: "exit" }],
    else: [],
  },
  { type: "set_field", key: "stage", value: "done" },
];

describe("step paths (D37)", () => {
  it("finds nested steps", () => {
    expect(stepAt(steps, [0])?.type).toBe("tag");
    expect(stepAt(steps, [1, "then", 1])?.type).toBe("exit");
    expect(stepAt(steps, [5])).toBeUndefined();
    expect(stepAt(steps, [0, "then", 0])).toBeUndefined();
  });

  it("moves to the next sibling, out of a branch, and to the end", () => {
    expect(nextPath(steps, [0])).toEqual([1]);
    expect(nextPath(steps, [1, "then", 0])).toEqual([1, "then", 1]);
    expect(nextPath(steps, [1, "then", 1])).toEqual([2]);
    expect(nextPath(steps, [2])).toBeNull();
  });

  it("enters a branch's list, or passes an empty one", () => {
    expect(enterList(steps, [1], "then")).toEqual([1, "then", 0]);
    expect(enterList(steps, [1], "else")).toEqual([2]);
  });

  it("evaluates conditions on the contact", () => {
    const contact = { tags: ["tag_vip"], fields: { plan: "pro", n: 0 }, opt_out_whatsapp: true, opt_out_email: false, opt_out_sms: false };
    expect(holds({ has_tag: "tag_vip" }, contact)).toBe(true);
    expect(holds({ has_tag: "tag_x" }, contact)).toBe(false);
    expect(holds({ field: "plan", equals: "pro" }, contact)).toBe(true);
    expect(holds({ field: "n", exists: true }, contact)).toBe(true);
    expect(holds({ field: "missing", exists: true }, contact)).toBe(false);
    expect(holds({ opted_out: "whatsapp" }, contact)).toBe(true);
    expect(holds({ opted_out: "email" }, contact)).toBe(false);
  });

  it("walks a wait_for's paths and then the steps after it (D63)", () => {
    const waits: Step[] = [
      { type: "wait_for", event: "order_paid", timeout: "P1D", on_event: [{ type: "exit" }], on_timeout: [] },
      { type: "tag", add: ["tag_a"] },
    ];
    expect(enterList(waits, [0], "on_event")).toEqual([0, "on_event", 0]);
    expect(enterList(waits, [0], "on_timeout")).toEqual([1]);
    expect(stepAt(waits, [0, "on_event", 0])?.type).toBe("exit");
    expect(stepAt(waits, [0, "then", 0])).toBeUndefined();
    expect(nextPath(waits, [0, "on_event", 0])).toEqual([1]);
  });

  it("gives every step an id where the document holds it, inside split paths too (issue 46)", () => {
    const split: Step[] = [
      {
        type: "split",
        paths: [
          { weight: 1, steps: [{ type: "branch", if: { has_tag: "t" }, then: [{ type: "exit" }], else: [] }] },
          { weight: 2, steps: [{ type: "wait", id: "kept", duration: "PT1H" }] },
        ],
      },
    ];
    const named = withStepIds(split, (_, path) => path.join("/"));
    // Nothing beside `paths`: the ids are on the steps of `paths[i].steps`.
    expect(named).toEqual([
      {
        type: "split",
        id: "0",
        paths: [
          {
            weight: 1,
            steps: [
              {
                type: "branch",
                id: "0/paths.0.steps/0",
                if: { has_tag: "t" },
                then: [{ type: "exit", id: "0/paths.0.steps/0/then/0" }],
                else: [],
              },
            ],
          },
          { weight: 2, steps: [{ type: "wait", id: "kept", duration: "PT1H" }] },
        ],
      },
    ]);
    expect(withStepIds(named)).toEqual(named);
    expect([...pathsById(named).keys()]).toEqual(["0", "0/paths.0.steps/0", "0/paths.0.steps/0/then/0", "kept"]);
    // A version saved without ids names each step by its path, as the run engine does.
    expect(stepAt(withStepIds(split, stepId), [0, "paths.0.steps", 0, "then", 0])?.id).toBe("steps.0.paths.0.steps.0.then.0");
  });
});
