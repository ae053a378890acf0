import { createHash } from "node:crypto";
import { stepParam, type Path } from "./step-path.ts";

/**
 * D68: the path a contact takes at a split: a hash of the flow id, the step's position and the
 * contact id, read as a number in [0, 1) and laid over the weights, so one contact always
 * takes the same path at that step and many contacts share the paths as the weights say.
 */
export function splitPath(flowId: string, position: Path, contactId: string, weights: number[]): number {
  const digest = createHash("sha256")
    .update(`${flowId}\n${stepParam(position)}\n${contactId}`)
    .digest();
  const total = weights.reduce((a, b) => a + b, 0);
  let point = (digest.readUIntBE(0, 6) / 2 ** 48) * total; // 48 bits: uniform enough for any weights
  for (const [i, w] of weights.entries()) {
    if (point < w) return i;
    point -= w;
  }
  return weights.length - 1;
}
