import { describe, expect, it } from "vitest";
import { endpointSlots, MAX_IN_FLIGHT_PER_ENDPOINT } from "./deliver-webhook.ts";

// D49: one worker's deliveries to one endpoint, at most MAX_IN_FLIGHT_PER_ENDPOINT at once;
// the real pipeline is proven in e2e/api/webhook-faults.test.ts.
describe("endpointSlots", () => {
  it("admits up to the cap, queues the rest in order, and hands each freed slot to the next", () => {
    const slots = endpointSlots<number>();
    const admitted = Array.from({ length: MAX_IN_FLIGHT_PER_ENDPOINT + 3 }, (_, i) => slots.admit("wh_a", i));
    expect(admitted.filter(Boolean)).toHaveLength(MAX_IN_FLIGHT_PER_ENDPOINT);
    expect(slots.admit("wh_b", 100)).toBe(true); // another endpoint is not held up
    expect(slots.skip().values).toEqual(["wh_a"]);
    expect(slots.waiting()).toEqual([10, 11, 12]);
    expect([slots.release("wh_a"), slots.release("wh_a")]).toEqual([10, 11]);
    // While any wait, a newcomer queues behind them even though a slot is being handed over.
    expect(slots.admit("wh_a", 13)).toBe(false);
    expect(slots.withdraw()).toEqual([12, 13]);
    expect(slots.release("wh_a")).toBeUndefined(); // 9 in flight: no longer skipped
    expect(slots.skip().values).toEqual([]);
  });
});
