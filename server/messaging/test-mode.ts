// Test mode (D35): a test key never contacts a provider. Its messages move on a simulated
// clock (`sent` at once, `delivered` about 1 s later, `read` about 2 s later); reserved
// recipients end elsewhere.

import type { SIMULATED_OUTCOMES } from "../outbox/job-kinds.ts";

export type Outcome = (typeof SIMULATED_OUTCOMES)[number];

const RESERVED: Record<string, Outcome> = {
  "+15550100001": "failed",
  "failed@example.com": "failed",
  "+15550100002": "delivered",
  "delivered@example.com": "delivered",
  "+15550100003": "sent",
  "sent@example.com": "sent",
  // D72: a hard bounce; the address joins the workspace's test suppressions.
  "bounced@example.com": "bounced",
};

export function simulatedOutcome(address: string): Outcome {
  return RESERVED[address.toLowerCase()] ?? "read";
}

export const SIMULATED_FAILURE = "simulated failure";
export const SIMULATED_BOUNCE = "Simulated hard bounce: 550 5.1.1 The e-mail account does not exist.";

/** The simulated steps of an outcome, with their delay after acceptance in milliseconds. */
export function simulatedSteps(outcome: Outcome): { status: Exclude<Outcome, "bounced">; afterMs: number }[] {
  if (outcome === "failed" || outcome === "bounced") return [{ status: "failed", afterMs: 0 }];
  const steps: { status: Exclude<Outcome, "bounced">; afterMs: number }[] = [{ status: "sent", afterMs: 0 }];
  if (outcome === "delivered" || outcome === "read") steps.push({ status: "delivered", afterMs: 1000 });
  if (outcome === "read") steps.push({ status: "read", afterMs: 2000 });
  return steps;
}
