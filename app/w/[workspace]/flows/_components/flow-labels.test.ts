import { describe, expect, it } from "vitest";
import type { Step } from "@/server/flows/flow-schemas.ts";
import { positionLabel, stepLabel } from "./flow-labels.tsx";

// Issue 46: a step's place is said in the canvas's words, never in the document's names.
describe("positionLabel", () => {
  it("names a wait's and a split's paths as the canvas's edges do", () => {
    expect(positionLabel([0, "on_timeout", 0, "paths.0.steps", 0])).toBe("Step 1 › timed out › 1 › path 1 › 1");
    expect(positionLabel([2, "on_event", 1])).toBe("Step 3 › event arrived › 2");
    expect(positionLabel([1, "else", 0])).toBe("Step 2 › else › 1");
  });

  it("names a wait on the last message's outcome by the outcome, given the document", () => {
    const steps: Step[] = [{ type: "wait_for", message: "replied", timeout: "P1D", on_event: [{ type: "exit" }], on_timeout: [] }];
    expect(positionLabel([0, "on_event", 0], steps)).toBe("Step 1 › message replied › 1");
    expect(stepLabel(steps, [0, "on_event", 0])).toBe("Step 1 › message replied › 1 (Exit)");
  });
});
