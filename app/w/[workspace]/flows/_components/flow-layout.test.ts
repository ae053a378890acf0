import { describe, expect, it } from "vitest";
import type { Step } from "@/server/flows/flow-schemas.ts";
import { flowLayout, NODE_SIZE } from "./flow-layout.ts";

const tag: Step = { type: "tag", add: ["tag_1"] };
const wait: Step = { type: "wait", duration: "P2D" };

const edgesOf = (steps: Step[]) => flowLayout(steps).edges.map((e) => `${e.source} -> ${e.target}${e.label ? ` (${e.label})` : ""}`);

describe("a flow drawn as a graph", () => {
  it("chains the steps from the start to the end", () => {
    expect(edgesOf([tag, wait])).toEqual(["start -> steps.0", "steps.0 -> steps.1", "steps.1 -> end"]);
    expect(edgesOf([])).toEqual(["start -> end"]);
  });

  it("labels a branch's paths, draws an empty path as a placeholder, and joins both paths at the next step", () => {
    const branch: Step = { type: "branch", if: { has_tag: "tag_1" }, then: [tag, wait], else: [] };
    expect(edgesOf([branch, tag])).toEqual([
      "start -> steps.0",
      "steps.0 -> steps.0.then.0 (then)",
      "steps.0.then.0 -> steps.0.then.1",
      "steps.0 -> steps.0.else (else)",
      "steps.0.then.1 -> steps.1",
      "steps.0.else -> steps.1",
      "steps.1 -> end",
    ]);
    const empty = flowLayout([branch]).nodes.find((n) => n.id === "steps.0.else");
    expect(empty).toMatchObject({ kind: "empty", list: [0, "else"] });
  });

  it("names wait_for and split paths, and gives nested steps their positions", () => {
    const waitFor: Step = { type: "wait_for", event: "order_paid", timeout: "P1D", on_event: [tag], on_timeout: [] };
    const split: Step = {
      type: "split",
      paths: [
        { weight: 1, steps: [waitFor] },
        { weight: 3, steps: [] },
      ],
    };
    const { nodes, edges } = flowLayout([split]);
    expect(edges.filter((e) => e.label).map((e) => e.label)).toEqual(["Path 1 · 25%", "event arrived", "timed out", "Path 2 · 75%"]);
    const x = (id: string) => nodes.find((n) => n.id === id)!.x;
    expect(x("steps.0.paths.0.steps.0")).toBeLessThan(x("steps.0.paths.1.steps"));
    expect(x("steps.0.paths.0.steps.0.on_event.0")).toBeLessThan(x("steps.0.paths.0.steps.0.on_timeout"));
    expect(nodes.find((n) => n.id === "steps.0.paths.0.steps.0.on_event.0")).toMatchObject({
      kind: "step",
      position: [0, "paths.0.steps", 0, "on_event", 0],
    });
  });

  it("ends a path at an exit: nothing leads on from it, and a flow whose every path exits has no end node", () => {
    const branch: Step = { type: "branch", if: { has_tag: "tag_1" }, then: [{ type: "exit" }], else: [{ type: "exit" }] };
    const { nodes, edges } = flowLayout([branch, tag]);
    expect(edges.some((e) => e.source === "steps.0.then.0" || e.source === "steps.0.else.0")).toBe(false);
    expect(edges.some((e) => e.target === "steps.1")).toBe(false);
    expect(flowLayout([{ type: "exit" }]).nodes.map((n) => n.id)).toEqual(["start", "steps.0"]);
    expect(nodes.map((n) => n.id)).toContain("end");
  });

  it("places every node inside the drawing, each rank below the one before, without overlaps", () => {
    const branch: Step = { type: "branch", if: { has_tag: "tag_1" }, then: [tag], else: [wait] };
    const { nodes, width, height } = flowLayout([tag, branch, wait]);
    for (const n of nodes) {
      expect(n.x).toBeGreaterThanOrEqual(0);
      expect(n.y).toBeGreaterThanOrEqual(0);
      expect(n.x + n.width).toBeLessThanOrEqual(Math.ceil(width));
      expect(n.y + n.height).toBeLessThanOrEqual(Math.ceil(height));
    }
    const at = (id: string) => nodes.find((n) => n.id === id)!;
    expect(at("steps.0").y).toBeGreaterThan(at("start").y);
    expect(at("steps.1.then.0").y).toBeGreaterThan(at("steps.1").y);
    expect(at("steps.1.then.0").y).toBe(at("steps.1.else.0").y);
    // The paths read left to right in the document's order.
    expect(at("steps.1.else.0").x - at("steps.1.then.0").x).toBeGreaterThanOrEqual(NODE_SIZE.step.width);
    expect(at("steps.2").y).toBeGreaterThan(at("steps.1.then.0").y);
  });
});
