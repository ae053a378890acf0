import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { splitPath } from "./split-path.ts";

// D68: the engine's own choice of path (advance-run.ts calls splitPath), over 10,000 contacts.
describe("splitPath (D68)", () => {
  it("shares 10,000 contacts within 2 points of the weights, for several weight sets", () => {
    for (const weights of [
      [50, 50],
      [50, 30, 20],
      [1, 1, 1, 1, 1],
      [90, 10],
      [7, 3],
    ]) {
      const counts = weights.map(() => 0);
      for (let i = 0; i < 10_000; i++) counts[splitPath("flow_x", [2], `ct_${randomUUID()}`, weights)]! += 1;
      const total = weights.reduce((a, b) => a + b, 0);
      counts.forEach((n, i) => expect(Math.abs(n / 100 - (weights[i]! / total) * 100)).toBeLessThan(2));
    }
  });

  it("gives one contact the same path every time, and depends on the flow and the step", () => {
    const a = splitPath("flow_a", [1], "ct_1", [1, 1, 1, 1, 1]);
    expect(splitPath("flow_a", [1], "ct_1", [1, 1, 1, 1, 1])).toBe(a);
    const differs = (f: (i: number) => number) => new Set(Array.from({ length: 50 }, (_, i) => f(i))).size > 1;
    expect(differs((i) => splitPath(`flow_${i}`, [1], "ct_1", [1, 1]))).toBe(true);
    expect(differs((i) => splitPath("flow_a", [i], "ct_1", [1, 1]))).toBe(true);
  });
});
